import { useState } from 'react';
import type { ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { DataTable } from '../../../shared/table.tsx';
import { ActionForm, ConfirmButton, Field, FormProblem, Notice, QueryState, SecretOnce, Status } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attempt, attemptAction, useInvalidate } from '../data.ts';
import { may } from '../roles.ts';

/**
 * Devices / API keys: generate (approved KYC and a verified e-mail), the secret shown once with a copy
 * button, the list by public prefix with creation and last use, revoke with a confirmation.
 */
export function ApiKeysPage({ session }: { session: Session }) {
  const keysQuery = $api.useQuery('get', '/dashboard/api/v1/api-keys');
  const createMutation = $api.useMutation('post', '/dashboard/api/v1/api-keys');
  const revokeMutation = $api.useMutation('post', '/dashboard/api/v1/api-keys/{keyId}/revoke');
  const invalidate = useInvalidate();
  const keys = keysQuery.data?.apiKeys;
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<Schemas['DashboardApiKeyCreated']>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  const revoke = async (key: Schemas['DashboardApiKey']) => {
    const revoked = await attemptAction(() => revokeMutation.mutateAsync({ params: { path: { keyId: key.keyId } } }));
    if (!revoked.ok) setProblem(revoked.problem);
    else setNotice(`Chave ${key.publicPrefix}… revogada. Ela deixa de funcionar em alguns segundos.`);
    await invalidate('/dashboard/api/v1/api-keys');
  };

  const canManage = may(session, 'createDashboardApiKey');
  const blockers = [
    session.account.kycStatus !== 'approved' ? 'a conta ainda não tem o KYC aprovado' : '',
    !session.user.emailVerified ? 'seu e-mail ainda não foi confirmado' : '',
  ].filter(Boolean);

  return (
    <>
      <h1>Dispositivos / Chaves de API</h1>
      <p className="muted">
        Cada chave autentica chamadas à API (<code>Authorization: Bearer …</code>). O segredo completo aparece uma única vez, na criação.
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      {created ? (
        <SecretOnce
          title={`Nova chave ${created.publicPrefix}…`}
          secret={created.apiKey}
          onDone={() => {
            setCreated(undefined);
            void invalidate('/dashboard/api/v1/api-keys');
          }}
        />
      ) : null}
      {canManage && !created ? (
        <>
          {blockers.length > 0 ? <p className="warning">Para gerar chaves: {blockers.join(' e ')}.</p> : null}
          <ActionForm
            label="Gerar chave"
            fields={['label']}
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              setNotice(undefined);
              const made = await attempt(() => createMutation.mutateAsync({ body: label.trim() ? { label: label.trim() } : {} }));
              if (!made.ok) return made.problem;
              setCreated(made.data);
              setLabel('');
              return undefined;
            }}
          >
            <Field label="Nome da chave (opcional)" name="label" value={label} onChange={(event) => setLabel(event.target.value)} problem={problem} placeholder="Servidor de produção" maxLength={60} />
          </ActionForm>
        </>
      ) : null}
      {!canManage ? <FormProblem problem={problem} /> : null}
      <h2>Chaves</h2>
      {!keys ? (
        <QueryState isPending={keysQuery.isPending} error={keysQuery.error} />
      ) : keys.length === 0 ? (
        <Notice>Nenhuma chave ainda.</Notice>
      ) : (
        <DataTable
          caption="Chaves de API"
          testId="api-keys"
          rows={keys}
          rowKey={(key) => key.keyId}
          columns={[
            { header: 'Prefixo', kind: 'title', cell: (key) => <code>{key.publicPrefix}…</code> },
            { header: 'Nome', cell: (key) => key.label ?? '—' },
            { header: 'Criada em', cell: (key) => formatDateTime(key.createdAt) },
            { header: 'Último uso', cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Nunca usada') },
            {
              header: 'Situação',
              cell: (key) =>
                key.revokedAt ? <Status value="deactivated" label={`Revogada em ${formatDateTime(key.revokedAt)}`} /> : <Status value="active" label="Ativa" />,
            },
            canManage && {
              header: 'Ações',
              kind: 'actions',
              cell: (key) =>
                key.revokedAt ? null : (
                  <ConfirmButton label="Revogar" confirm={`Revogar a chave ${key.publicPrefix}…? As chamadas com ela passam a receber 401.`} danger onConfirm={() => revoke(key)} />
                ),
            },
          ]}
        />
      )}
    </>
  );
}
