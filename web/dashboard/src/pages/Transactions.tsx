import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDateTime, statusLabel } from '../../../shared/format.ts';
import { FormProblem, Loading, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { api, type Schemas, type Session } from '../api.ts';
import { may } from '../roles.ts';
import { AttemptTable } from './Deliveries.tsx';

type Transaction = Schemas['Transaction'];
const TYPE_LABEL = { pix_in: 'Cobrança', withdrawal: 'Saque' } as const;

export function TransactionTable({ transactions }: { transactions: Transaction[] }) {
  return (
    <table>
      <caption className="sr-only">Transações</caption>
      <thead>
        <tr>
          <th scope="col">Transação</th>
          <th scope="col">Tipo</th>
          <th scope="col" className="num">
            Valor
          </th>
          <th scope="col" className="num">
            Tarifa
          </th>
          <th scope="col">Situação</th>
          <th scope="col">Referência</th>
          <th scope="col">Criada em</th>
        </tr>
      </thead>
      <tbody>
        {transactions.map((transaction) => (
          <tr key={transaction.transactionId}>
            <td>
              <a href={`#/transacoes/${transaction.transactionId}`}>{transaction.transactionId}</a>
            </td>
            <td>{TYPE_LABEL[transaction.type]}</td>
            <td className="num">{formatBrl(transaction.amountCents)}</td>
            <td className="num">{formatBrl(transaction.feeCents)}</td>
            <td>
              <Status value={transaction.status} label={statusLabel(transaction.status)} />
            </td>
            <td>{transaction.externalRef ?? '—'}</td>
            <td>{formatDateTime(transaction.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Transactions: the filters of GET /v1/transactions (type, how many) over the account's transactions. */
export function TransactionsPage() {
  const [type, setType] = useState('');
  const [limit, setLimit] = useState('50');
  const [list, setList] = useState<Schemas['TransactionList']>();
  const [problem, setProblem] = useState<ApiProblem>();

  useEffect(() => {
    void (async () => {
      const query = { limit: Number(limit), ...(type === 'pix_in' ? { type: 'pix_in' as const } : type === 'withdrawal' ? { type: 'withdrawal' as const } : {}) };
      const { data, error } = await api.GET('/dashboard/api/v1/transactions', { params: { query } });
      setProblem(error ? problemOf(error) : undefined);
      if (data) setList(data);
    })();
  }, [type, limit]);

  return (
    <>
      <h1>Transações</h1>
      <div className="filters" role="search" aria-label="Filtros de transações">
        <SelectField
          label="Tipo"
          name="type"
          value={type}
          onChange={setType}
          problem={problem}
          options={[
            { value: '', label: 'Todas' },
            { value: 'pix_in', label: 'Cobranças' },
            { value: 'withdrawal', label: 'Saques' },
          ]}
        />
        <SelectField
          label="Quantidade"
          name="limit"
          value={limit}
          onChange={setLimit}
          problem={problem}
          options={['10', '50', '100'].map((value) => ({ value, label: `Últimas ${value}` }))}
        />
      </div>
      <FormProblem problem={problem} fields={['type', 'limit']} />
      {!list ? <Loading /> : list.count === 0 ? <Notice>Nenhuma transação.</Notice> : <TransactionTable transactions={list.transactions} />}
    </>
  );
}

const CHARGE_ACTIONS = [
  ['pay', 'Simular pagamento'],
  ['expire', 'Expirar'],
  ['cancel', 'Cancelar'],
  ['fail', 'Simular falha'],
] as const;
const WITHDRAWAL_ACTIONS = [
  ['settle', 'Simular liquidação'],
  ['reject', 'Simular recusa do PSP'],
] as const;

/** One transaction: its fields, its events and each event's webhook deliveries; sandbox actions outside production. */
export function TransactionPage({ transactionId, session }: { transactionId: string; session: Session }) {
  const [detail, setDetail] = useState<Schemas['TransactionEvents']>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/dashboard/api/v1/transactions/{transactionId}', { params: { path: { transactionId } } });
    if (error) setProblem(problemOf(error));
    else setDetail(data);
  }, [transactionId]);

  useEffect(() => {
    void load();
  }, [load]);

  const sandbox = async (kind: 'charge' | 'withdrawal', action: string, label: string) => {
    setNotice(undefined);
    const { error } =
      kind === 'charge'
        ? await api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', {
            params: { path: { transactionId, action: action as 'pay' | 'expire' | 'cancel' | 'fail' } },
          })
        : await api.POST('/dashboard/api/v1/sandbox/withdrawals/{transactionId}/{action}', {
            params: { path: { transactionId, action: action as 'settle' | 'reject' } },
          });
    if (error) {
      setProblem(problemOf(error));
      return;
    }
    setProblem(undefined);
    setNotice(`${label}: feito.`);
    await load();
  };

  const resend = async (eventId: string) => {
    const { data, error } = await api.POST('/dashboard/api/v1/events/{eventId}/resend', { params: { path: { eventId } }, body: {} });
    if (error) {
      setProblem(problemOf(error));
      return;
    }
    setProblem(undefined);
    setNotice(`Reenvio agendado para ${data.deliveries.length} URL(s). Reenvios restantes nesta hora: ${data.resendQuota.remaining}.`);
    setTimeout(() => void load(), 1500);
  };

  if (!detail) return problem ? <FormProblem problem={problem} /> : <Loading />;
  const { transaction, events } = detail;
  const isCharge = transaction.type === 'pix_in';
  // What the simulated PSP can still report for this transaction: a pending charge is paid, expires, is
  // cancelled or fails; a withdrawal on its way is settled or rejected.
  const sandboxActions = isCharge ? (transaction.status === 'pending' ? CHARGE_ACTIONS : []) : transaction.status === 'processing' ? WITHDRAWAL_ACTIONS : [];
  const party = transaction.payer ?? transaction.beneficiary;
  return (
    <>
      <p>
        <a href="#/transacoes">← Transações</a>
      </p>
      <h1>
        {TYPE_LABEL[transaction.type]} {transaction.transactionId}
      </h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      <section className="card grid-2" aria-label="Dados da transação">
        <dl>
          <dt>Situação</dt>
          <dd>
            <Status value={transaction.status} label={statusLabel(transaction.status)} />
            {transaction.refusedReason ? <span className="muted"> — {transaction.refusedReason}</span> : null}
          </dd>
          <dt>Valor</dt>
          <dd>{formatBrl(transaction.amountCents)}</dd>
          <dt>Tarifa</dt>
          <dd>{formatBrl(transaction.feeCents)}</dd>
          <dt>{isCharge ? 'Líquido creditado' : 'Total debitado'}</dt>
          <dd>{formatBrl(isCharge ? transaction.netCents : transaction.amountCents + transaction.feeCents)}</dd>
          <dt>Referência</dt>
          <dd>{transaction.externalRef ?? '—'}</dd>
        </dl>
        <dl>
          <dt>Criada em</dt>
          <dd>{formatDateTime(transaction.createdAt)}</dd>
          {isCharge ? (
            <>
              <dt>Expira em</dt>
              {/* The contract's expiresAt is in seconds (the other times are in milliseconds). */}
              <dd>{formatDateTime(transaction.expiresAt === undefined ? undefined : transaction.expiresAt * 1000)}</dd>
            </>
          ) : null}
          <dt>Paga em</dt>
          <dd>{formatDateTime(transaction.paidAt)}</dd>
          <dt>Identificador fim a fim</dt>
          <dd>{transaction.endToEndId ?? '—'}</dd>
          {party ? (
            <>
              <dt>{transaction.payer ? 'Pagador' : 'Beneficiário'}</dt>
              <dd>
                {party.name} ({party.document})
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      {transaction.pixPayload ? (
        <section className="card" aria-label="Pix copia e cola">
          <h2>Pix copia e cola</h2>
          <pre className="payload">{transaction.pixPayload}</pre>
          <div className="actions">
            <button type="button" className="secondary" onClick={() => void navigator.clipboard.writeText(transaction.pixPayload ?? '').catch(() => undefined)}>
              Copiar código
            </button>
          </div>
        </section>
      ) : null}
      {session.sandbox && may(session, 'sandboxChargeAction') && sandboxActions.length > 0 ? (
        <section className="card" aria-label="Ações de teste">
          <h2>Ações de teste (sandbox)</h2>
          <p className="muted">Simulam o que o PSP informaria, sem dinheiro real, e disparam os webhooks do contrato.</p>
          <div className="actions">
            {sandboxActions.map(([action, label]) => (
              <button key={action} type="button" className="secondary" onClick={() => void sandbox(isCharge ? 'charge' : 'withdrawal', action, label)}>
                {label}
              </button>
            ))}
          </div>
        </section>
      ) : null}
      <h2>Eventos e entregas de webhook</h2>
      {events.length === 0 ? <Notice>Nenhum evento ainda.</Notice> : null}
      {events.map((event) => (
        <section key={event.eventId} className="card" aria-label={`Evento ${event.event}`}>
          <h3>
            {event.event} <span className="muted">· {formatDateTime(event.occurredAt)}</span>
          </h3>
          <p className="muted">{event.eventId}</p>
          {event.attempts.length === 0 ? <p>Nenhuma entrega (nenhuma URL inscrita neste evento).</p> : <AttemptTable attempts={event.attempts} />}
          {may(session, 'resendDashboardEvent') ? (
            <div className="actions">
              <button type="button" className="secondary" onClick={() => void resend(event.eventId)}>
                Reenviar evento
              </button>
            </div>
          ) : null}
        </section>
      ))}
    </>
  );
}
