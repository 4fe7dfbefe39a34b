import { useState } from 'react';
import type { ApiProblem } from '../../../../shared/api.ts';
import { ActionButton, ConfirmButton, FormProblem, Status } from '../../../../shared/ui.tsx';
import { $api, may, type Schemas } from '../../api.ts';
import { outcome, useInvalidate } from '../../queries.ts';
import { EmailConfirmation, KYC_LABEL } from '../Accounts.tsx';
import { Section, type SectionProps } from './Section.tsx';

/** KYC and blocking: compliance decisions, each audited. */
export function StatusSection({ account, session, onChanged }: Omit<SectionProps, 'accountId'> & { account: Schemas['Account'] }) {
  const [problem, setProblem] = useState<ApiProblem>();
  const invalidate = useInvalidate();
  const mutation = $api.useMutation('patch', '/admin/v1/accounts/{accountId}');
  const update = async (body: Schemas['UpdateAccountRequest'], message: string) => {
    const result = await outcome(() => mutation.mutateAsync({ params: { path: { accountId: account.accountId } }, body }));
    setProblem(result.problem);
    if (result.problem) return;
    await invalidate('/admin/v1/accounts/{accountId}', '/admin/v1/accounts', '/admin/v1/audit-log');
    onChanged(message);
  };
  return (
    <Section title="Situação da conta">
      <p>
        <Status value={account.kycStatus === 'approved' ? 'approved' : account.kycStatus === 'rejected' ? 'rejected' : 'pending'} label={KYC_LABEL[account.kycStatus]} />{' '}
        {account.blocked ? <Status value="blocked" label="Bloqueada" /> : <Status value="active" label="Ativa" />} <EmailConfirmation verified={account.emailVerified} />
      </p>
      {account.emailVerified === false ? (
        <p className="warning" role="status">
          Quem se cadastrou ainda não abriu o link de confirmação enviado ao e-mail {account.email}: pode ser um cadastro em massa, não um cliente real.
        </p>
      ) : null}
      <FormProblem problem={problem} />
      {may(session, 'updateAccount') ? (
        <div className="actions">
          {account.kycStatus !== 'approved' ? (
            <ConfirmButton
              label="Aprovar KYC"
              primary
              confirm={`Aprovar o KYC de ${account.legalName}? A conta passa a gerar chaves de API e a movimentar dinheiro.${
                account.emailVerified === false ? ' Atenção: o e-mail do cadastro ainda não foi confirmado.' : ''
              }`}
              onConfirm={() => update({ kycStatus: 'approved' }, 'KYC aprovado.')}
            />
          ) : null}
          {account.kycStatus !== 'rejected' ? (
            <ConfirmButton label="Recusar KYC" danger confirm="Recusar o KYC? A conta deixa de operar." onConfirm={() => update({ kycStatus: 'rejected' }, 'KYC recusado.')} />
          ) : null}
          {account.blocked ? (
            <ActionButton label="Desbloquear" className="secondary" onClick={() => update({ blocked: false }, 'Conta desbloqueada.')} />
          ) : (
            <ConfirmButton label="Bloquear" danger confirm="Bloquear a conta? Todas as chamadas da API passam a ser recusadas." onConfirm={() => update({ blocked: true }, 'Conta bloqueada.')} />
          )}
        </div>
      ) : null}
    </Section>
  );
}
