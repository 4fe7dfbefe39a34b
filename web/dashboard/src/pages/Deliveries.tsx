import { useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { deliveryErrorLabel, formatDateTime } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { Field, FormProblem, Notice, QueryState, SelectField, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attemptAction, useInvalidate } from '../data.ts';
import { NamedActionButton } from '../NamedActionButton.tsx';
import { may } from '../roles.ts';

type Attempt = Schemas['DeliveryAttempt'];

/** Every attempt: when, which URL, the exact payload, HTTP status, duration, error; one card each on a phone, "Reenviar" in it. */
export function AttemptTable({ attempts, onResend }: { attempts: Attempt[]; onResend?: (attempt: Attempt) => Promise<unknown> }) {
  return (
    <DataTable
      caption="Tentativas de entrega"
      testId="attempts"
      rows={attempts}
      rowKey={(attempt) => attempt.attemptId}
      columns={[
        { header: 'Evento', kind: 'title', cell: (attempt) => `${attempt.event} · ${formatDateTime(attempt.createdAt)}` },
        {
          header: 'Resultado',
          cell: (attempt) => (
            <>
              <Status value={attempt.outcome} label={attempt.outcome === 'success' ? 'Entregue' : 'Falhou'} />
              {attempt.error ? <div className="muted">{deliveryErrorLabel(attempt.error)}</div> : null}
            </>
          ),
        },
        { header: 'URL', cell: (attempt) => <span className="muted url-cell">{attempt.url}</span> },
        { header: 'Tentativa', cell: (attempt) => `${attempt.attemptNumber}${attempt.trigger === 'manual' ? ' (reenvio)' : ''}` },
        { header: 'HTTP', cell: (attempt) => attempt.httpStatus ?? '—' },
        { header: 'Duração', cell: (attempt) => `${attempt.durationMs} ms` },
        {
          header: 'Conteúdo enviado',
          cell: (attempt) => (
            <details>
              <summary>Ver conteúdo</summary>
              <pre className="payload">{attempt.requestBody}</pre>
              {attempt.responseExcerpt ? (
                <>
                  <p className="muted">Resposta recebida:</p>
                  <pre className="payload">{attempt.responseExcerpt}</pre>
                </>
              ) : null}
            </details>
          ),
        },
        onResend && {
          header: 'Ações',
          kind: 'actions',
          cell: (attempt) => <NamedActionButton className="secondary" label="Reenviar" name={`Reenviar ${attempt.event} para ${attempt.url}`} onClick={() => onResend(attempt)} />,
        },
      ]}
    />
  );
}

/** Delivery history (60 days): filters by event, URL, outcome and transaction; manual resend within the hourly quota. */
export function DeliveriesPage({ query, session }: { query: URLSearchParams; session: Session }) {
  const [event, setEvent] = useState('');
  const [endpointId, setEndpointId] = useState(query.get('endpointId') ?? '');
  const [outcome, setOutcome] = useState('');
  const [transactionId, setTransactionId] = useState(query.get('transactionId') ?? '');
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const invalidate = useInvalidate();

  // The typed filters apply on "Filtrar" (or Enter); the choices apply at once.
  const [typed, setTyped] = useState({ event: '', transactionId: query.get('transactionId') ?? '' });
  const filters = {
    ...(typed.event.trim() ? { event: typed.event.trim() } : {}),
    ...(endpointId ? { endpointId } : {}),
    ...(outcome === 'success' ? { outcome: 'success' as const } : outcome === 'failure' ? { outcome: 'failure' as const } : {}),
    ...(typed.transactionId.trim() ? { transactionId: typed.transactionId.trim() } : {}),
  };
  const listQuery = $api.useQuery('get', '/dashboard/api/v1/webhook-deliveries', { params: { query: filters } });
  const webhooksQuery = $api.useQuery('get', '/dashboard/api/v1/webhooks');
  const resendMutation = $api.useMutation('post', '/dashboard/api/v1/events/{eventId}/resend');
  const list = listQuery.data;
  const listProblem = listQuery.error ? problemOf(listQuery.error) : undefined;
  const fieldsProblem = problem ?? listProblem;

  const resend = async (attempt: Attempt) => {
    setNotice(undefined);
    const sent = await attemptAction(() => resendMutation.mutateAsync({ params: { path: { eventId: attempt.eventId } }, body: { endpointId: attempt.endpointId } }));
    if (!sent.ok) {
      setProblem(sent.problem);
      return;
    }
    setProblem(undefined);
    setNotice(`Reenvio de ${attempt.event} agendado. Reenvios restantes nesta hora: ${sent.data.resendQuota.remaining}.`);
    await invalidate('/dashboard/api/v1/webhook-deliveries', '/dashboard/api/v1/transactions/{transactionId}');
    // The resent attempt is recorded once the URL answers.
    setTimeout(() => void invalidate('/dashboard/api/v1/webhook-deliveries'), 1500);
  };

  return (
    <>
      <h1>Entregas de webhook</h1>
      <p className="muted">Cada tentativa dos últimos 60 dias, com o conteúdo exato enviado, o status HTTP, a duração e o erro.</p>
      {list ? (
        <p role="status" data-testid="resend-quota">
          Reenvios manuais: {list.resendQuota.remaining} de {list.resendQuota.limitPerHour} restantes nesta hora (renova às{' '}
          {formatDateTime(list.resendQuota.resetsAt)}).
        </p>
      ) : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <form
        className="filters"
        role="search"
        aria-label="Filtros de entregas"
        onSubmit={(submitted) => {
          submitted.preventDefault();
          setProblem(undefined);
          setTyped({ event, transactionId });
        }}
      >
        <Field label="Evento" name="event" value={event} onChange={(changed) => setEvent(changed.target.value)} placeholder="transaction.paid" problem={fieldsProblem} />
        <SelectField
          label="URL"
          name="endpointId"
          value={endpointId}
          onChange={setEndpointId}
          problem={fieldsProblem}
          options={[{ value: '', label: 'Todas' }, ...(webhooksQuery.data?.webhooks ?? []).map((webhook) => ({ value: webhook.endpointId, label: webhook.url }))]}
        />
        <SelectField
          label="Resultado"
          name="outcome"
          value={outcome}
          onChange={setOutcome}
          problem={fieldsProblem}
          options={[
            { value: '', label: 'Todos' },
            { value: 'success', label: 'Entregue' },
            { value: 'failure', label: 'Falhou' },
          ]}
        />
        <Field label="Transação" name="transactionId" value={transactionId} onChange={(changed) => setTransactionId(changed.target.value)} placeholder="tx_…" problem={fieldsProblem} />
        <button type="submit" className="secondary">
          Filtrar
        </button>
      </form>
      <FormProblem problem={problem} />
      <QueryState isPending={listQuery.isPending} error={listQuery.error}>
        {list ? (
          list.count === 0 ? (
            <Notice>Nenhuma entrega com esses filtros.</Notice>
          ) : (
            <AttemptTable attempts={list.attempts} {...(may(session, 'resendDashboardEvent') ? { onResend: resend } : {})} />
          )
        ) : null}
      </QueryState>
    </>
  );
}
