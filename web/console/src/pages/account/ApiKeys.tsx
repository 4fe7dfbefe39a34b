import { useState } from 'react';
import type { ApiProblem } from '../../../../shared/api.ts';
import { formatDateTime } from '../../../../shared/format.ts';
import { ConfirmButton, FormProblem, QueryState } from '../../../../shared/ui.tsx';
import { $api, may } from '../../api.ts';
import { outcome, useInvalidate } from '../../queries.ts';
import { Section, type SectionProps } from './Section.tsx';

/** The account's API keys (revoke one). */
export function ApiKeysSection({ accountId, session, onChanged }: SectionProps) {
  const { data, isPending, error } = $api.useQuery('get', '/admin/v1/accounts/{accountId}/api-keys', { params: { path: { accountId } } });
  const revoke = $api.useMutation('post', '/admin/v1/accounts/{accountId}/api-keys/{keyId}/revoke');
  const invalidate = useInvalidate();
  const [problem, setProblem] = useState<ApiProblem>();
  return (
    <Section title="Chaves de API">
      <FormProblem problem={problem} />
      <QueryState isPending={isPending} error={error}>
        {data?.apiKeys.length === 0 ? <p>Nenhuma chave.</p> : null}
        <ul>
          {data?.apiKeys.map((key) => (
            <li key={key.keyId}>
              <code>{key.publicPrefix}…</code> {key.label ?? ''} · criada em {formatDateTime(key.createdAt)}{' '}
              {key.revokedAt ? (
                `· revogada em ${formatDateTime(key.revokedAt)}`
              ) : may(session, 'revokeApiKey') ? (
                <ConfirmButton
                  label="Revogar"
                  danger
                  confirm={`Revogar ${key.publicPrefix}…?`}
                  onConfirm={async () => {
                    const result = await outcome(() => revoke.mutateAsync({ params: { path: { accountId, keyId: key.keyId } } }));
                    setProblem(result.problem);
                    if (result.problem) return;
                    await invalidate('/admin/v1/accounts/{accountId}/api-keys', '/admin/v1/audit-log');
                    onChanged(`Chave ${key.publicPrefix}… revogada.`);
                  }}
                />
              ) : null}
            </li>
          ))}
        </ul>
      </QueryState>
    </Section>
  );
}
