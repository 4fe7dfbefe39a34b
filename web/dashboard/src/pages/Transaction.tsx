import { useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { formatDateTime, formatDocument, maskDocument } from '../../../shared/format.ts';
import { ActionButton, FormProblem, Money, Notice, QueryState, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attemptAction, useInvalidate } from '../data.ts';
import { may } from '../roles.ts';
import { transactionFacts, transactionStatusLabel, type Fact } from '../transactionFacts.ts';
import { AttemptTable } from './Deliveries.tsx';
import { RefundForm, RefundTable } from './Refund.tsx';
import { TYPE_LABEL } from './Transactions.tsx';

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

/** The server's answer to an unknown (or another account's) transaction. */
const NOT_FOUND = 'Transação não encontrada.';
/** How long after an event its first delivery may still be on its way (the worker polls every few seconds). */
const DELIVERY_GRACE_MS = 60_000;

/** One transaction: its facts by status, its QR code, its events and their deliveries; sandbox actions outside production. */
export function TransactionPage({ transactionId, session }: { transactionId: string; session: Session }) {
  const valid = /^tx_[0-9a-f]{24}$/.test(transactionId);
  const detailQuery = $api.useQuery(
    'get',
    '/dashboard/api/v1/transactions/{transactionId}',
    { params: { path: { transactionId } } },
    {
      enabled: valid,
      // While an event has no delivery yet and URLs are registered, read again: its first attempt is on its way.
      refetchInterval: (query) => (awaitingDelivery(query.state.data) ? 2_000 : false),
    },
  );
  const notFound = !valid || (detailQuery.error !== null && problemOf(detailQuery.error).error === NOT_FOUND);
  if (notFound) {
    return (
      <>
        <h1>Transação não encontrada</h1>
        <p>
          Nenhuma transação desta conta tem o identificador <code className="wrap-anywhere">{transactionId}</code>. Confira o endereço ou procure pela
          referência.
        </p>
        <p>
          <a className="button secondary" href="#/transacoes">
            ← Voltar para Transações
          </a>
        </p>
      </>
    );
  }
  const detail = detailQuery.data;
  return (
    <>
      <p>
        <a href="#/transacoes">← Transações</a>
      </p>
      {detail ? (
        <TransactionDetail detail={detail} session={session} />
      ) : (
        <>
          <h1>Transação {transactionId}</h1>
          <QueryState isPending={detailQuery.isPending} error={detailQuery.error} />
        </>
      )}
    </>
  );
}

function awaitingDelivery(detail: Schemas['TransactionEvents'] | undefined): boolean {
  if (!detail) return false;
  return detail.events.some((event) => event.attempts.length === 0 && Date.now() - event.occurredAt < DELIVERY_GRACE_MS);
}

function TransactionDetail({ detail, session }: { detail: Schemas['TransactionEvents']; session: Session }) {
  const { transaction, events } = detail;
  const transactionId = transaction.transactionId;
  const invalidate = useInvalidate();
  const chargeAction = $api.useMutation('post', '/dashboard/api/v1/sandbox/charges/{transactionId}/{action}');
  const withdrawalAction = $api.useMutation('post', '/dashboard/api/v1/sandbox/withdrawals/{transactionId}/{action}');
  const resendMutation = $api.useMutation('post', '/dashboard/api/v1/events/{eventId}/resend');
  const webhooksQuery = $api.useQuery('get', '/dashboard/api/v1/webhooks');
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<ReturnType<typeof problemOf>>();
  const isCharge = transaction.type === 'pix_in';
  const hasUrls = (webhooksQuery.data?.webhooks ?? []).some((webhook) => webhook.enabled);

  const refreshAll = () =>
    invalidate('/dashboard/api/v1/transactions/{transactionId}', '/dashboard/api/v1/transactions', '/dashboard/api/v1/overview', '/dashboard/api/v1/statement');

  const sandbox = async (action: string, label: string) => {
    setNotice(undefined);
    const outcome = await attemptAction(() =>
      isCharge
        ? chargeAction.mutateAsync({ params: { path: { transactionId, action: action as 'pay' | 'expire' | 'cancel' | 'fail' } } })
        : withdrawalAction.mutateAsync({ params: { path: { transactionId, action: action as 'settle' | 'reject' } } }),
    );
    if (!outcome.ok) {
      setProblem(outcome.problem);
      return;
    }
    setProblem(undefined);
    setNotice(`${label}: feito.`);
    await refreshAll();
  };

  const resend = async (eventId: string) => {
    setNotice(undefined);
    const outcome = await attemptAction(() => resendMutation.mutateAsync({ params: { path: { eventId } }, body: {} }));
    if (!outcome.ok) {
      setProblem(outcome.problem);
      return;
    }
    setProblem(undefined);
    setNotice(`Reenvio agendado para ${outcome.data.deliveries.length} URL(s). Reenvios restantes nesta hora: ${outcome.data.resendQuota.remaining}.`);
    await invalidate('/dashboard/api/v1/webhook-deliveries');
    setTimeout(() => void invalidate('/dashboard/api/v1/transactions/{transactionId}'), 1500);
  };

  // What the simulated PSP can still report for this transaction: a pending charge is paid, expires, is
  // cancelled or fails; a withdrawal on its way is settled or rejected.
  const sandboxActions = isCharge ? (transaction.status === 'pending' ? CHARGE_ACTIONS : []) : transaction.status === 'processing' ? WITHDRAWAL_ACTIONS : [];
  const party = transaction.payer ?? transaction.beneficiary;
  return (
    <>
      <h1 className="wrap-anywhere">
        {TYPE_LABEL[transaction.type]} {transactionId}
      </h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <FormProblem problem={problem} />
      <section className="card grid-2" aria-label="Dados da transação">
        <dl>
          <dt>Situação</dt>
          <dd>
            <Status value={transaction.status} label={transactionStatusLabel(transaction)} />
            {transaction.refusedReason ? <span className="muted"> — {transaction.refusedReason}</span> : null}
          </dd>
          <dt>Valor</dt>
          <dd>
            <Money cents={transaction.amountCents} />
          </dd>
          <dt>Tarifa</dt>
          <dd>
            <Money cents={transaction.feeCents} />
          </dd>
          {transactionFacts(transaction)
            .filter((fact) => !('time' in fact))
            .map((fact) => (
              <FactLine key={fact.label} fact={fact} />
            ))}
          <dt>Referência</dt>
          <dd className="wrap-anywhere">{transaction.externalRef ?? '—'}</dd>
        </dl>
        <dl>
          <dt>Criada em</dt>
          <dd>{formatDateTime(transaction.createdAt)}</dd>
          {isCharge && transaction.status === 'pending' ? (
            <>
              <dt>Expira em</dt>
              {/* The contract's expiresAt is in seconds (the other times are in milliseconds). */}
              <dd>{formatDateTime(transaction.expiresAt === undefined ? undefined : transaction.expiresAt * 1000)}</dd>
            </>
          ) : null}
          {transactionFacts(transaction)
            .filter((fact) => 'time' in fact)
            .map((fact) => (
              <FactLine key={fact.label} fact={fact} />
            ))}
          {transaction.endToEndId ? (
            <>
              <dt>Identificador fim a fim</dt>
              <dd className="wrap-anywhere">{transaction.endToEndId}</dd>
            </>
          ) : null}
          {party ? (
            <>
              <dt>{transaction.payer ? 'Pagador' : 'Beneficiário'}</dt>
              <dd>
                {party.name} ({transaction.payer ? maskDocument(party.document) : formatDocument(party.document)})
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      {isCharge && transaction.pixPayload ? <ChargeCode transactionId={transactionId} payload={transaction.pixPayload} payable={transaction.status === 'pending'} /> : null}
      {isCharge && (detail.refunds?.length ?? 0) > 0 ? <RefundTable refunds={detail.refunds ?? []} /> : null}
      {isCharge && (transaction.status === 'paid' || transaction.status === 'partially_refunded') ? (
        <RefundForm session={session} transaction={transaction} refunds={detail.refunds ?? []} onDone={() => void refreshAll()} />
      ) : null}
      {session.sandbox && may(session, 'sandboxChargeAction') && sandboxActions.length > 0 ? (
        <section className="card" aria-label="Ações de teste">
          <h2>Ações de teste (sandbox)</h2>
          <p className="muted">Simulam o que o PSP informaria, sem dinheiro real, e disparam os webhooks do contrato.</p>
          <div className="actions">
            {sandboxActions.map(([action, label]) => (
              <ActionButton key={action} className="secondary" label={label} onClick={() => sandbox(action, label)} />
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
          <p className="muted wrap-anywhere">{event.eventId}</p>
          {event.attempts.length > 0 ? (
            <AttemptTable attempts={event.attempts} />
          ) : hasUrls && Date.now() - event.occurredAt < DELIVERY_GRACE_MS ? (
            <p role="status">
              <Status value="pending" label="Entrega pendente" /> O envio às URLs inscritas está na fila; esta página se atualiza sozinha.
            </p>
          ) : (
            <p>Nenhuma entrega registrada: nenhuma URL ativa inscrita neste evento quando ele ocorreu.</p>
          )}
          {may(session, 'resendDashboardEvent') ? (
            <div className="actions">
              <ActionButton className="secondary" label="Reenviar evento" onClick={() => resend(event.eventId)} />
            </div>
          ) : null}
        </section>
      ))}
    </>
  );
}

function FactLine({ fact }: { fact: Fact }) {
  return (
    <>
      <dt>{fact.label}</dt>
      <dd>{'cents' in fact ? <Money cents={fact.cents} /> : 'time' in fact ? formatDateTime(fact.time) : fact.text}</dd>
    </>
  );
}

/** A charge's QR code (served by the dashboard API for the session) and its copy-and-paste code. */
export function ChargeCode({ transactionId, payload, payable }: { transactionId: string; payload: string; payable: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="card charge-code" aria-label="Pix copia e cola">
      <h2>{payable ? 'Pague com Pix' : 'Pix copia e cola'}</h2>
      <div className="qr-row">
        {payable ? (
          <div className="qr">
            <img src={`/dashboard/api/v1/transactions/${transactionId}/qrcode?size=440`} alt="QR code Pix da cobrança" width={220} height={220} />
          </div>
        ) : null}
        <div>
          <pre className="payload">{payload}</pre>
          <div className="actions">
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void navigator.clipboard
                  .writeText(payload)
                  .then(() => setCopied(true))
                  .catch(() => undefined)
              }
            >
              {copied ? 'Código copiado' : 'Copiar código'}
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
