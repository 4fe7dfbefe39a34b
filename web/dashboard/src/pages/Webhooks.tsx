import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { deliveryErrorLabel, formatDateTime } from '../../../shared/format.ts';
import { ActionButton, ActionForm, ConfirmButton, Field, FormProblem, Notice, QueryState, SecretOnce, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt, attemptAction, useInvalidate } from '../data.ts';
import { may } from '../roles.ts';

type Webhook = Schemas['DashboardWebhook'];
const FILTER_HINT = 'Separados por vírgula: nomes de eventos (transaction.paid) ou categorias (cashin, cashout, refund, dispute, chargeback, recurring). Vazio: todos os eventos.';

const parseFilter = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** Webhooks: up to the account's maximum of URLs, each with its filter, secret (shown once), rotation, pause, test and delete. */
export function WebhooksPage({ session }: { session: Session }) {
  const listQuery = $api.useQuery('get', '/dashboard/api/v1/webhooks');
  const createMutation = $api.useMutation('post', '/dashboard/api/v1/webhooks');
  const invalidate = useInvalidate();
  const list = listQuery.data;
  const [secret, setSecret] = useState<{ title: string; value: string; note?: string }>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const [form, setForm] = useState({ url: '', events: '', description: '' });

  const canManage = may(session, 'createDashboardWebhook');
  const full = list !== undefined && list.count >= list.maxWebhooks;
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Até {list?.maxWebhooks ?? 6} URLs. Em produção, só HTTPS com endereço público. Cada entrega é assinada com o segredo da URL (cabeçalhos
        webhook-id, webhook-timestamp e webhook-signature).
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      {secret ? (
        <SecretOnce
          title={secret.title}
          secret={secret.value}
          onDone={() => {
            setSecret(undefined);
            void invalidate('/dashboard/api/v1/webhooks');
          }}
        />
      ) : null}
      {secret?.note ? <p className="muted">{secret.note}</p> : null}
      {canManage && !secret ? (
        full ? (
          <p className="warning">O limite de {list?.maxWebhooks} URLs foi atingido. Exclua uma para cadastrar outra.</p>
        ) : (
          <section aria-label="Nova URL de webhook">
            <h2>Nova URL</h2>
            <ActionForm
              label="Cadastrar URL"
              fields={['url', 'events', 'description']}
              problem={problem}
              onProblem={setProblem}
              action={async () => {
                setNotice(undefined);
                const events = parseFilter(form.events);
                const body = { url: form.url.trim(), ...(events.length ? { events } : {}), ...(form.description.trim() ? { description: form.description.trim() } : {}) };
                const made = await attempt(() => createMutation.mutateAsync({ body }));
                if (!made.ok) return made.problem;
                setSecret({ title: `Segredo de ${made.data.url}`, value: made.data.secret });
                await invalidate('/dashboard/api/v1/webhooks');
                setForm({ url: '', events: '', description: '' });
                return undefined;
              }}
            >
              <Field label="URL" name="url" type="url" value={form.url} onChange={(event) => setForm({ ...form, url: event.target.value })} problem={problem} placeholder="https://loja.com.br/webhooks/pix" />
              <Field label="Eventos" name="events" value={form.events} onChange={(event) => setForm({ ...form, events: event.target.value })} problem={problem} hint={FILTER_HINT} />
              <Field label="Descrição (opcional)" name="description" value={form.description} onChange={(event) => setForm({ ...form, description: event.target.value })} problem={problem} />
            </ActionForm>
          </section>
        )
      ) : null}
      <h2>URLs cadastradas</h2>
      {!canManage ? <FormProblem problem={problem} /> : null}
      {!list ? (
        <QueryState isPending={listQuery.isPending} error={listQuery.error} />
      ) : list.count === 0 ? (
        <Notice>Nenhuma URL cadastrada.</Notice>
      ) : (
        list.webhooks.map((webhook) => (
          <WebhookCard
            key={webhook.endpointId}
            webhook={webhook}
            canManage={canManage}
            onChanged={(message) => {
              setNotice(message);
              void invalidate('/dashboard/api/v1/webhooks', '/dashboard/api/v1/webhook-deliveries');
            }}
            onSecret={setSecret}
            onTested={() => void invalidate('/dashboard/api/v1/webhook-deliveries')}
          />
        ))
      )}
    </>
  );
}

function WebhookCard(props: {
  webhook: Webhook;
  canManage: boolean;
  onChanged: (message: string) => void;
  onSecret: (secret: { title: string; value: string; note?: string }) => void;
  onTested: () => void;
}) {
  const { webhook } = props;
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState({ url: webhook.url, events: webhook.events.join(', '), description: webhook.description ?? '' });
  const [problem, setProblem] = useState<ApiProblem>();
  const [test, setTest] = useState<Schemas['WebhookTestResult']>();
  const path = { params: { path: { endpointId: webhook.endpointId } } };
  const updateMutation = $api.useMutation('patch', '/dashboard/api/v1/webhooks/{endpointId}');
  const testMutation = $api.useMutation('post', '/dashboard/api/v1/webhooks/{endpointId}/test');
  const rotateMutation = $api.useMutation('post', '/dashboard/api/v1/webhooks/{endpointId}/rotate-secret');
  const deleteMutation = $api.useMutation('delete', '/dashboard/api/v1/webhooks/{endpointId}');

  const update = async (body: Schemas['UpdateDashboardWebhookRequest'], message: string) => {
    const updated = await attempt(() => updateMutation.mutateAsync({ ...path, body }));
    if (!updated.ok) return updated.problem;
    setEditing(false);
    props.onChanged(message);
    return undefined;
  };

  return (
    <section className="card" aria-label={`Webhook ${webhook.url}`}>
      <h3 className="wrap-anywhere">
        {webhook.url} {webhook.enabled ? <Status value="active" label="Ativa" /> : <Status value="pending" label="Pausada" />}
      </h3>
      <p className="muted">
        {webhook.description ? `${webhook.description} · ` : ''}Eventos: {webhook.events.length ? webhook.events.join(', ') : 'todos'} · Segredo{' '}
        <code>{webhook.secretPrefix}…</code> · Atualizada em {formatDateTime(webhook.updatedAt)}
      </p>
      {editing ? (
        <ActionForm
          label="Salvar"
          fields={['url', 'events', 'description']}
          problem={problem}
          onProblem={setProblem}
          action={() =>
            update(
              { url: form.url.trim(), events: parseFilter(form.events), description: form.description.trim() ? form.description.trim() : null },
              `URL ${form.url.trim()} atualizada.`,
            )
          }
        >
          <Field label="URL" name="url" type="url" value={form.url} onChange={(event) => setForm({ ...form, url: event.target.value })} problem={problem} />
          <Field label="Eventos" name="events" value={form.events} onChange={(event) => setForm({ ...form, events: event.target.value })} problem={problem} hint={FILTER_HINT} />
          <Field label="Descrição" name="description" value={form.description} onChange={(event) => setForm({ ...form, description: event.target.value })} problem={problem} />
        </ActionForm>
      ) : null}
      {!editing ? <FormProblem problem={problem} /> : null}
      {test ? (
        <p role="status" className={test.delivered ? 'notice' : 'warning'}>
          Evento de teste {test.eventId}: {test.delivered ? 'entregue' : 'não entregue'}
          {test.httpStatus !== null ? ` (HTTP ${test.httpStatus})` : ''} em {test.durationMs} ms{test.error ? ` — ${deliveryErrorLabel(test.error)}` : ''}.
        </p>
      ) : null}
      <div className="actions">
        <a href={`#/entregas?endpointId=${webhook.endpointId}`}>Ver entregas</a>
        {props.canManage ? (
          <>
            <ActionButton
              className="secondary"
              label="Enviar evento de teste"
              onClick={async () => {
                const tested = await attemptAction(() => testMutation.mutateAsync(path));
                setProblem(tested.ok ? undefined : tested.problem);
                setTest(tested.ok ? tested.data : undefined);
                props.onTested();
              }}
            />
            <button type="button" className="secondary" onClick={() => setEditing(!editing)}>
              {editing ? 'Cancelar edição' : 'Editar'}
            </button>
            <ActionButton
              className="secondary"
              label={webhook.enabled ? 'Pausar' : 'Reativar'}
              onClick={async () => {
                const result = await attemptAction(() =>
                  update({ enabled: !webhook.enabled }, webhook.enabled ? `URL ${webhook.url} pausada.` : `URL ${webhook.url} reativada.`),
                );
                setProblem(result.ok ? result.data : result.problem);
              }}
            />
            <ConfirmButton
              label="Girar segredo"
              confirm="Gerar um novo segredo? O anterior continua válido por 24 horas."
              onConfirm={async () => {
                const rotated = await attemptAction(() => rotateMutation.mutateAsync(path));
                if (!rotated.ok) {
                  setProblem(rotated.problem);
                  return;
                }
                const data = rotated.data;
                props.onSecret({
                  title: `Novo segredo de ${webhook.url}`,
                  value: data.secret,
                  note: `O segredo anterior continua aceito até ${formatDateTime(data.previousSecretExpiresAt)}.`,
                });
              }}
            />
            <ConfirmButton
              label="Excluir"
              danger
              confirm={`Excluir ${webhook.url}? Os eventos deixam de ser enviados para ela.`}
              onConfirm={async () => {
                const deleted = await attemptAction(() => deleteMutation.mutateAsync(path));
                if (!deleted.ok) setProblem(deleted.problem);
                else props.onChanged(`URL ${webhook.url} excluída.`);
              }}
            />
          </>
        ) : null}
      </div>
    </section>
  );
}
