import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { ActionForm, ConfirmButton, Field, FormProblem, Loading, Notice, SecretOnce, Status } from '../../../shared/ui.tsx';
import { api, type Schemas, type Session } from '../api.ts';
import { may } from '../roles.ts';


/**
 * Devices / API keys: generate (approved KYC and a verified e-mail), the secret shown once with a copy
 * button, the list by public prefix with creation and last use, revoke with a confirmation.
 */
export function ApiKeysPage({ session }: { session: Session }) {
  const [keys, setKeys] = useState<Schemas['DashboardApiKey'][]>();
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<Schemas['DashboardApiKeyCreated']>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/dashboard/api/v1/api-keys');
    if (error) setProblem(problemOf(error));
    else setKeys(data.apiKeys);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const revoke = async (key: Schemas['DashboardApiKey']) => {
    const { error } = await api.POST('/dashboard/api/v1/api-keys/{keyId}/revoke', { params: { path: { keyId: key.keyId } } });
    if (error) setProblem(problemOf(error));
    else setNotice(`Chave ${key.publicPrefix}… revogada. Ela deixa de funcionar em alguns segundos.`);
    await load();
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
            void load();
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
              const { data, error } = await api.POST('/dashboard/api/v1/api-keys', { body: label.trim() ? { label: label.trim() } : {} });
              if (error) return problemOf(error);
              setCreated(data);
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
        <Loading />
      ) : keys.length === 0 ? (
        <Notice>Nenhuma chave ainda.</Notice>
      ) : (
        <table>
          <caption className="sr-only">Chaves de API</caption>
          <thead>
            <tr>
              <th scope="col">Prefixo</th>
              <th scope="col">Nome</th>
              <th scope="col">Criada em</th>
              <th scope="col">Último uso</th>
              <th scope="col">Situação</th>
              {canManage ? <th scope="col">Ações</th> : null}
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.keyId}>
                <td>
                  <code>{key.publicPrefix}…</code>
                </td>
                <td>{key.label ?? '—'}</td>
                <td>{formatDateTime(key.createdAt)}</td>
                <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Nunca usada'}</td>
                <td>
                  {key.revokedAt ? (
                    <Status value="deactivated" label={`Revogada em ${formatDateTime(key.revokedAt)}`} />
                  ) : (
                    <Status value="active" label="Ativa" />
                  )}
                </td>
                {canManage ? (
                  <td>
                    {key.revokedAt ? null : (
                      <ConfirmButton label="Revogar" confirm={`Revogar a chave ${key.publicPrefix}…? As chamadas com ela passam a receber 401.`} danger onConfirm={() => revoke(key)} />
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
