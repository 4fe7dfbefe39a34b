import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Field, FormProblem, Loading, Notice, SelectField, Status } from '../../../shared/ui.tsx';
import { api, type Schemas, type Session } from '../api.ts';
import { may } from '../roles.ts';

type Attempt = Schemas['DeliveryAttempt'];

/** Every attempt: when, which URL, the exact payload, HTTP status, duration, error. */
export function AttemptTable({ attempts, onResend }: { attempts: Attempt[]; onResend?: (attempt: Attempt) => void }) {
  return (
    <table>
      <caption className="sr-only">Tentativas de entrega</caption>
      <thead>
        <tr>
          <th scope="col">Quando</th>
          <th scope="col">Evento</th>
          <th scope="col">URL</th>
          <th scope="col">Tentativa</th>
          <th scope="col">Resultado</th>
          <th scope="col" className="num">
            HTTP
          </th>
          <th scope="col" className="num">
            Duração
          </th>
          <th scope="col">Conteúdo enviado</th>
          {onResend ? <th scope="col">Ações</th> : null}
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.attemptId}>
            <td>{formatDateTime(attempt.createdAt)}</td>
            <td>{attempt.event}</td>
            <td className="muted">{attempt.url}</td>
            <td>
              {attempt.attemptNumber}
              {attempt.trigger === 'manual' ? ' (reenvio)' : ''}
            </td>
            <td>
              <Status value={attempt.outcome} label={attempt.outcome === 'success' ? 'Entregue' : 'Falhou'} />
              {attempt.error ? <div className="muted">{attempt.error}</div> : null}
            </td>
            <td className="num">{attempt.httpStatus ?? '—'}</td>
            <td className="num">{attempt.durationMs} ms</td>
            <td>
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
            </td>
            {onResend ? (
              <td>
                <button type="button" className="secondary" onClick={() => onResend(attempt)} aria-label={`Reenviar ${attempt.event} para ${attempt.url}`}>
                  Reenviar
                </button>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Delivery history (60 days): filters by event, URL, outcome and transaction; manual resend within the hourly quota. */
export function DeliveriesPage({ query, session }: { query: URLSearchParams; session: Session }) {
  const [event, setEvent] = useState('');
  const [endpointId, setEndpointId] = useState(query.get('endpointId') ?? '');
  const [outcome, setOutcome] = useState('');
  const [transactionId, setTransactionId] = useState(query.get('transactionId') ?? '');
  const [list, setList] = useState<Schemas['DeliveryList']>();
  const [webhooks, setWebhooks] = useState<Schemas['DashboardWebhook'][]>([]);
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  // The typed filters apply on "Filtrar" (or Enter); the choices apply at once.
  const [typed, setTyped] = useState({ event: '', transactionId: query.get('transactionId') ?? '' });
  const load = useCallback(async () => {
    const filters = {
      ...(typed.event.trim() ? { event: typed.event.trim() } : {}),
      ...(endpointId ? { endpointId } : {}),
      ...(outcome === 'success' ? { outcome: 'success' as const } : outcome === 'failure' ? { outcome: 'failure' as const } : {}),
      ...(typed.transactionId.trim() ? { transactionId: typed.transactionId.trim() } : {}),
    };
    const { data, error } = await api.GET('/dashboard/api/v1/webhook-deliveries', { params: { query: filters } });
    setProblem(error ? problemOf(error) : undefined);
    if (data) setList(data);
  }, [typed, endpointId, outcome]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    void (async () => {
      const { data } = await api.GET('/dashboard/api/v1/webhooks');
      if (data) setWebhooks(data.webhooks);
    })();
  }, []);

  const resend = async (attempt: Attempt) => {
    setNotice(undefined);
    const { data, error } = await api.POST('/dashboard/api/v1/events/{eventId}/resend', {
      params: { path: { eventId: attempt.eventId } },
      body: { endpointId: attempt.endpointId },
    });
    if (error) {
      setProblem(problemOf(error));
      return;
    }
    setNotice(`Reenvio de ${attempt.event} agendado. Reenvios restantes nesta hora: ${data.resendQuota.remaining}.`);
    setTimeout(() => void load(), 1500);
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
          setTyped({ event, transactionId });
        }}
      >
        <Field label="Evento" name="event" value={event} onChange={(changed) => setEvent(changed.target.value)} placeholder="transaction.paid" problem={problem} />
        <SelectField
          label="URL"
          name="endpointId"
          value={endpointId}
          onChange={setEndpointId}
          problem={problem}
          options={[{ value: '', label: 'Todas' }, ...webhooks.map((webhook) => ({ value: webhook.endpointId, label: webhook.url }))]}
        />
        <SelectField
          label="Resultado"
          name="outcome"
          value={outcome}
          onChange={setOutcome}
          problem={problem}
          options={[
            { value: '', label: 'Todos' },
            { value: 'success', label: 'Entregue' },
            { value: 'failure', label: 'Falhou' },
          ]}
        />
        <Field label="Transação" name="transactionId" value={transactionId} onChange={(changed) => setTransactionId(changed.target.value)} placeholder="tx_…" problem={problem} />
        <button type="submit" className="secondary">
          Filtrar
        </button>
      </form>
      <FormProblem problem={problem} fields={['event', 'endpointId', 'outcome', 'transactionId']} />
      {!list ? <Loading /> : list.count === 0 ? <Notice>Nenhuma entrega com esses filtros.</Notice> : <AttemptTable attempts={list.attempts} {...(may(session, 'resendDashboardEvent') ? { onResend: (attempt: Attempt) => void resend(attempt) } : {})} />}
    </>
  );
}
