import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatBrl, formatDateTime, parseBrl, saoPauloDayStart, statusLabel } from '../../../shared/format.ts';
import { navigate } from '../../../shared/router.ts';
import { ActionForm, Field, FormProblem, Loading, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { api, type Schemas, type Session } from '../api.ts';
import { may } from '../roles.ts';
import { CsvExport } from './CsvExport.tsx';
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

const STATUSES = ['pending', 'processing', 'pending_approval', 'paid', 'failed', 'failed_unknown', 'cancelled', 'expired', 'refunded', 'partially_refunded'] as const;
type TransactionStatus = (typeof STATUSES)[number];

/**
 * Transactions: GET /v1/transactions's filters (type, status, a period of São Paulo days, an externalRef),
 * a search by transaction id or externalRef, real pages (the cursor of each page kept, so "Anterior" goes
 * back), and the CSV export of the period.
 */
export function TransactionsPage() {
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [externalRef, setExternalRef] = useState('');
  const [limit, setLimit] = useState('50');
  // The cursors that led to each page read so far: the last one is the current page's.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [list, setList] = useState<Schemas['TransactionList']>();
  const [problem, setProblem] = useState<ApiProblem>();
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    void (async () => {
      const createdFrom = from ? saoPauloDayStart(from) : undefined;
      const dayAfterTo = to ? saoPauloDayStart(to) : undefined;
      const query = {
        limit: Number(limit),
        ...(type === 'pix_in' ? { type: 'pix_in' as const } : type === 'withdrawal' ? { type: 'withdrawal' as const } : {}),
        ...(status ? { status: status as TransactionStatus } : {}),
        ...(createdFrom !== undefined ? { createdFrom } : {}),
        ...(dayAfterTo !== undefined ? { createdTo: dayAfterTo + 86_400_000 } : {}),
        ...(externalRef ? { externalRef } : {}),
        ...(cursor ? { cursor } : {}),
      };
      const { data, error } = await api.GET('/dashboard/api/v1/transactions', { params: { query } });
      setProblem(error ? problemOf(error) : undefined);
      if (data) setList(data);
    })();
  }, [type, status, from, to, externalRef, limit, cursor]);

  // Any change of filter starts again from the first page.
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setCursors([undefined]);
  };

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    const text = search.trim();
    if (/^tx_[0-9a-f]{24}$/.test(text)) {
      navigate(`/transacoes/${text}`);
      return;
    }
    filter(setExternalRef)(text);
  };

  return (
    <>
      <h1>Transações</h1>
      <form className="filters" role="search" aria-label="Buscar transação" onSubmit={submitSearch}>
        <Field
          label="Buscar por transação ou referência"
          name="search"
          value={search}
          placeholder="tx_… ou externalRef"
          onChange={(event) => setSearch(event.target.value)}
        />
        <button type="submit" className="secondary">
          Buscar
        </button>
        {externalRef ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setSearch('');
              filter(setExternalRef)('');
            }}
          >
            Limpar busca
          </button>
        ) : null}
      </form>
      <div className="filters" role="group" aria-label="Filtros de transações">
        <SelectField
          label="Tipo"
          name="type"
          value={type}
          onChange={filter(setType)}
          problem={problem}
          options={[
            { value: '', label: 'Todas' },
            { value: 'pix_in', label: 'Cobranças' },
            { value: 'withdrawal', label: 'Saques' },
          ]}
        />
        <SelectField
          label="Situação"
          name="status"
          value={status}
          onChange={filter(setStatus)}
          problem={problem}
          options={[{ value: '', label: 'Todas' }, ...STATUSES.map((value) => ({ value, label: statusLabel(value) }))]}
        />
        <Field label="De" name="createdFrom" type="date" value={from} problem={problem} onChange={(event) => filter(setFrom)(event.target.value)} />
        <Field label="Até" name="createdTo" type="date" value={to} problem={problem} onChange={(event) => filter(setTo)(event.target.value)} />
        <SelectField
          label="Por página"
          name="limit"
          value={limit}
          onChange={filter(setLimit)}
          problem={problem}
          options={['10', '50', '100'].map((value) => ({ value, label: value }))}
        />
      </div>
      <CsvExport path="/dashboard/api/v1/transactions.csv" from={from} to={to} query={{ ...(type ? { type } : {}), ...(status ? { status } : {}) }} />
      {externalRef ? <Notice>Transações com a referência {externalRef}.</Notice> : null}
      <FormProblem problem={problem} fields={['type', 'status', 'createdFrom', 'createdTo', 'limit']} />
      {!list ? <Loading /> : list.count === 0 ? <Notice>Nenhuma transação.</Notice> : <TransactionTable transactions={list.transactions} />}
      <nav className="actions" aria-label="Páginas">
        <button type="button" className="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          ← Anterior
        </button>
        <span className="muted">Página {cursors.length}</span>
        <button
          type="button"
          className="secondary"
          disabled={!list?.nextCursor}
          onClick={() => list?.nextCursor && setCursors([...cursors, list.nextCursor])}
        >
          Próxima →
        </button>
      </nav>
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
      {isCharge && (detail.refunds?.length ?? 0) > 0 ? <RefundTable refunds={detail.refunds ?? []} /> : null}
      {isCharge && (transaction.status === 'paid' || transaction.status === 'partially_refunded') ? (
        <RefundForm session={session} transaction={transaction} refunds={detail.refunds ?? []} onDone={() => void load()} />
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

type Refund = Schemas['Refund'];

/** The refunds of a charge, newest first, with their outcome. */
function RefundTable({ refunds }: { refunds: Refund[] }) {
  return (
    <section className="card" aria-label="Devoluções">
      <h2>Devoluções</h2>
      <table>
        <caption className="sr-only">Devoluções da cobrança</caption>
        <thead>
          <tr>
            <th scope="col">Devolução</th>
            <th scope="col" className="num">
              Valor
            </th>
            <th scope="col">Situação</th>
            <th scope="col">Descrição</th>
            <th scope="col">Pedida em</th>
            <th scope="col">Concluída em</th>
          </tr>
        </thead>
        <tbody>
          {refunds.map((refund) => (
            <tr key={refund.refundId}>
              <td>
                {refund.refundId}
                {refund.refundEndToEndId ? <div className="muted">{refund.refundEndToEndId}</div> : null}
              </td>
              <td className="num">{formatBrl(refund.amountCents)}</td>
              <td>
                <Status value={refund.status} label={REFUND_STATUS[refund.status]} />
                {refund.refusedReason ? <div className="muted">{refund.refusedReason}</div> : null}
              </td>
              <td>{refund.description ?? '—'}</td>
              <td>{formatDateTime(refund.createdAt)}</td>
              <td>{formatDateTime(refund.refundedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

const REFUND_STATUS: Record<Refund['status'], string> = { processing: 'Em processamento', refunded: 'Devolvida', failed: 'Não realizada' };

/** A reference of this form's attempt: sending again (a double click, a lost answer) cannot refund twice. */
const newRefundReference = () => `devolucao-painel-${crypto.randomUUID()}`;

/**
 * "Devolver": POST /v1/transactions/{id}/refunds from the page, with the authenticator's code, after a
 * confirmation that says the amount and that the fee is not returned. Owner or admin, two-factor on.
 */
function RefundForm(props: { session: Session; transaction: Transaction; refunds: Refund[]; onDone: () => void }) {
  const { session, transaction } = props;
  const inFlight = props.refunds.filter((refund) => refund.status === 'processing').reduce((sum, refund) => sum + refund.amountCents, 0);
  const refundable = Math.max(0, transaction.amountCents - (transaction.refundedCents ?? 0) - inFlight);
  const [form, setForm] = useState({ amount: '', description: '', totpCode: '' });
  const [reference, setReference] = useState(newRefundReference);
  const [confirming, setConfirming] = useState<number>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  if (!may(session, 'createDashboardRefund')) return null;
  if (!session.user.twoFactorEnabled) {
    return (
      <section className="card" aria-label="Devolver">
        <h2>Devolver</h2>
        <p className="warning">
          Devoluções pelo painel exigem a verificação em duas etapas. <a href="#/seguranca">Ative-a em Segurança</a>.
        </p>
      </section>
    );
  }
  return (
    <section className="card" aria-label="Devolver">
      <h2>Devolver</h2>
      <p className="muted">
        Devolve ao pagador, por PIX, até {formatBrl(refundable)} desta cobrança (em até 90 dias do pagamento). O valor sai do saldo disponível agora; a tarifa da
        cobrança não é devolvida.
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      <ActionForm
        label={confirming === undefined ? 'Devolver' : `Confirmar devolução de ${formatBrl(confirming)}`}
        fields={['amountCents', 'description', 'totpCode']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          setNotice(undefined);
          const amountCents = form.amount.trim() === '' ? refundable : parseBrl(form.amount);
          if (amountCents === undefined || amountCents < 1) return { error: 'Informe o valor em reais, por exemplo 15,00.', field: 'amountCents' };
          if (confirming !== amountCents) {
            // The first click asks for confirmation of the amount; the second sends it.
            setConfirming(amountCents);
            return undefined;
          }
          const { data, error, response } = await api.POST('/dashboard/api/v1/transactions/{transactionId}/refunds', {
            params: { path: { transactionId: transaction.transactionId } },
            body: {
              amountCents,
              externalRef: reference,
              totpCode: form.totpCode,
              ...(form.description.trim() ? { description: form.description.trim() } : {}),
            },
          });
          setConfirming(undefined);
          if (error) return problemOf(error);
          setReference(newRefundReference());
          setForm({ amount: '', description: '', totpCode: '' });
          setNotice(
            response.status === 200
              ? 'Esta devolução já tinha sido pedida; nada foi debitado de novo.'
              : `Devolução de ${formatBrl(data.amountCents)} pedida (${data.refundId}): em processamento.`,
          );
          props.onDone();
          return undefined;
        }}
      >
        <Field
          label="Valor (R$)"
          name="amountCents"
          inputMode="decimal"
          placeholder={formatBrl(refundable)}
          hint="Em branco: tudo o que ainda pode ser devolvido."
          value={form.amount}
          problem={problem}
          onChange={(event) => {
            setConfirming(undefined);
            setForm({ ...form, amount: event.target.value });
          }}
        />
        <Field
          label="Descrição para o pagador"
          name="description"
          maxLength={140}
          value={form.description}
          problem={problem}
          onChange={(event) => setForm({ ...form, description: event.target.value })}
        />
        <Field
          label="Código do aplicativo autenticador"
          name="totpCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={form.totpCode}
          problem={problem}
          onChange={(event) => setForm({ ...form, totpCode: event.target.value })}
        />
        {confirming !== undefined ? (
          <p className="warning" role="alert">
            Confirme: {formatBrl(confirming)} serão devolvidos ao pagador e sairão do saldo disponível.
          </p>
        ) : null}
      </ActionForm>
    </section>
  );
}
