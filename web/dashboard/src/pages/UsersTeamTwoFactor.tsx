import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { ConfirmButton, Notice } from '../../../shared/ui.tsx';
import { api, type Session } from '../api.ts';

/**
 * What requiring two-factor means now (issue 38, defect 8): the people who can sign in without it, and the
 * invitations still pending apart (an invitation is not a person; an expired one is not counted at all).
 */
export function teamNotice(withoutTwoFactor: number, pendingInvitations: number): string {
  const people =
    withoutTwoFactor === 0
      ? 'Todos que entram no painel já a ativaram.'
      : `${withoutTwoFactor === 1 ? '1 pessoa que entra no painel ainda precisa ativá-la' : `${withoutTwoFactor} pessoas que entram no painel ainda precisam ativá-la`} e verá só essa etapa até ativar.`;
  const invitations =
    pendingInvitations === 0 ? '' : ` ${pendingInvitations === 1 ? '1 convite pendente' : `${pendingInvitations} convites pendentes`}: quem aceitar ativa a verificação antes de usar o painel.`;
  return `Verificação em duas etapas exigida de toda a equipe. ${people}${invitations}`;
}

/**
 * The owner's setting "two-factor required for the whole team" (issue 22). Shown to everyone (so members
 * know why), changed by an owner only; turning it on needs the owner's own two-factor first.
 */
export function TeamTwoFactorSection({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const required = session.teamTwoFactorRequired === true;
  const isOwner = session.user.role === 'owner';

  const change = async (next: boolean) => {
    const { data, error } = await api.PUT('/dashboard/api/v1/team-two-factor', { body: { required: next } });
    if (error) {
      setNotice(undefined);
      setProblem(problemOf(error).error);
      return;
    }
    setProblem(undefined);
    setNotice(data.required ? teamNotice(data.usersWithoutTwoFactor, data.pendingInvitations) : 'A verificação em duas etapas deixou de ser exigida da equipe.');
    await queryClient.invalidateQueries({ queryKey: ['get', '/dashboard/api/v1/session'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/dashboard/api/v1/users'] });
  };

  return (
    <section className="card" aria-labelledby="equipe-2fa-titulo">
      <h2 id="equipe-2fa-titulo">Verificação em duas etapas da equipe</h2>
      <p>
        Situação: <strong>{required ? 'exigida de todos' : 'opcional'}</strong>. Quando exigida, quem ainda não ativou é levado a ativá-la antes de usar o
        painel.
      </p>
      {notice ? <Notice>{notice}</Notice> : null}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {isOwner ? (
        required ? (
          <ConfirmButton label="Deixar de exigir" danger confirm="Deixar de exigir a verificação em duas etapas da equipe?" onConfirm={() => change(false)} />
        ) : (
          <ConfirmButton label="Exigir de toda a equipe" confirm="Exigir a verificação em duas etapas de todos os usuários da conta?" onConfirm={() => change(true)} />
        )
      ) : (
        <p className="muted">Só o proprietário da conta muda esta configuração.</p>
      )}
    </section>
  );
}
