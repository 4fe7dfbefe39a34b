import { useState } from 'react';
import type { ApiProblem } from '../../../../shared/api.ts';
import { deliveryErrorLabel, formatDateTime } from '../../../../shared/format.ts';
import { DataTable } from '../../../../shared/table.tsx';
import { ActionButton, FormProblem, QueryState } from '../../../../shared/ui.tsx';
import { $api, may } from '../../api.ts';
import { outcome, useInvalidate } from '../../queries.ts';
import { Section, type SectionProps } from './Section.tsx';

/** The account's webhook URLs and the last delivery attempts (resend one). */
export function WebhooksSection({ accountId, session, onChanged }: SectionProps) {
  const path = { params: { path: { accountId } } };
  const hooks = $api.useQuery('get', '/admin/v1/accounts/{accountId}/webhooks', path);
  const attempts = $api.useQuery('get', '/admin/v1/accounts/{accountId}/webhook-attempts', { params: { path: { accountId }, query: { limit: 50 } } });
  const resend = $api.useMutation('post', '/admin/v1/accounts/{accountId}/events/{eventId}/resend');
  const invalidate = useInvalidate();
  const [problem, setProblem] = useState<ApiProblem>();
  return (
    <Section title="Webhooks e entregas">
      <FormProblem problem={problem} />
      <QueryState isPending={hooks.isPending} error={hooks.error}>
        {hooks.data?.webhooks.length === 0 ? <p>Nenhuma URL cadastrada.</p> : null}
        <ul>
          {hooks.data?.webhooks.map((webhook) => (
            <li key={webhook.endpointId} className="break-anywhere">
              {webhook.url} — {webhook.enabled ? 'ativa' : 'pausada'} · eventos: {webhook.events.length ? webhook.events.join(', ') : 'todos'}
            </li>
          ))}
        </ul>
      </QueryState>
      <h3>Últimas entregas</h3>
      <QueryState isPending={attempts.isPending} error={attempts.error}>
        {attempts.data?.attempts.length === 0 ? <p>Nenhuma entrega registrada até agora.</p> : null}
        {attempts.data && attempts.data.attempts.length > 0 ? (
          <DataTable
            caption="Últimas tentativas de entrega"
            rows={attempts.data.attempts}
            rowKey={(attempt) => attempt.attemptId}
            columns={[
              { header: 'Evento', kind: 'title', cell: (attempt) => `${attempt.event} · ${formatDateTime(attempt.createdAt)}` },
              { header: 'URL', cell: (attempt) => <span className="muted break-anywhere">{attempt.url}</span> },
              { header: 'HTTP', cell: (attempt) => attempt.httpStatus ?? '—' },
              { header: 'Duração', cell: (attempt) => `${attempt.durationMs} ms` },
              { header: 'Erro', cell: (attempt) => (attempt.error ? deliveryErrorLabel(attempt.error) : '—') },
              {
                header: 'Conteúdo',
                cell: (attempt) => (
                  <details>
                    <summary>Ver conteúdo</summary>
                    <pre className="payload">{attempt.requestBody}</pre>
                  </details>
                ),
              },
              may(session, 'resendEvent') && {
                header: 'Ações',
                kind: 'actions',
                cell: (attempt) => (
                  <ActionButton
                    label="Reenviar"
                    className="secondary"
                    onClick={async () => {
                      const result = await outcome(() => resend.mutateAsync({ params: { path: { accountId, eventId: attempt.eventId } }, body: {} }));
                      setProblem(result.problem);
                      if (result.problem) return;
                      await invalidate('/admin/v1/accounts/{accountId}/webhook-attempts', '/admin/v1/audit-log');
                      onChanged(`Evento ${attempt.event} reenviado.`);
                    }}
                  />
                ),
              },
            ]}
          />
        ) : null}
      </QueryState>
    </Section>
  );
}
