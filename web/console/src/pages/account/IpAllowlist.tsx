import { useState } from 'react';
import type { ApiProblem } from '../../../../shared/api.ts';
import { ActionForm } from '../../../../shared/ui.tsx';
import { $api, type Schemas } from '../../api.ts';
import { outcome, useInvalidate } from '../../queries.ts';
import { Section } from './Section.tsx';

/** The addresses the account's API keys may be used from (compliance). */
export function IpAllowlistSection({ account, canUpdate, onChanged }: { account: Schemas['Account']; canUpdate: boolean; onChanged: (message: string) => void }) {
  const [text, setText] = useState(account.ipAllowlist.join('\n'));
  const [problem, setProblem] = useState<ApiProblem>();
  const invalidate = useInvalidate();
  const mutation = $api.useMutation('patch', '/admin/v1/accounts/{accountId}');
  if (!canUpdate) {
    return (
      <Section title="IPs permitidos">
        <p>{account.ipAllowlist.length ? account.ipAllowlist.join(', ') : 'Qualquer IP.'}</p>
      </Section>
    );
  }
  return (
    <Section title="IPs permitidos">
      <ActionForm
        label="Salvar IPs permitidos"
        fields={['ipAllowlist']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          const ipAllowlist = text
            .split(/[\s,]+/)
            .map((entry) => entry.trim())
            .filter(Boolean);
          const result = await outcome(() => mutation.mutateAsync({ params: { path: { accountId: account.accountId } }, body: { ipAllowlist } }));
          if (result.problem) return result.problem;
          await invalidate('/admin/v1/accounts/{accountId}', '/admin/v1/audit-log');
          onChanged('IPs permitidos salvos.');
          return undefined;
        }}
      >
        <div className="field">
          <label htmlFor="ip-allowlist">Endereços ou faixas CIDR, um por linha (vazio: qualquer IP)</label>
          <textarea
            id="ip-allowlist"
            name="ipAllowlist"
            rows={4}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={problem?.field === 'ipAllowlist' ? true : undefined}
            aria-describedby={problem?.field === 'ipAllowlist' ? 'ip-allowlist-error' : undefined}
          />
          {problem?.field === 'ipAllowlist' ? (
            <p id="ip-allowlist-error" className="field-error" role="alert">
              {problem.error}
            </p>
          ) : null}
        </div>
      </ActionForm>
    </Section>
  );
}
