import { useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { PASSWORD_CHANGE_FIELDS, PasswordChangeFields, usePasswordChange } from '../../../shared/password.tsx';
import { ActionForm, Notice } from '../../../shared/ui.tsx';
import { api, ROLE_LABEL, sessionState, type OperatorSession } from '../api.ts';

/**
 * The operator's own password change (issue 22): the current password, the new one twice. Used at the
 * first sign-in (a temporary password must be changed before anything else) and on "Minha conta".
 */
export function ChangePasswordForm({ label, onChanged }: { label: string; onChanged: (session: OperatorSession) => void }) {
  const form = usePasswordChange();
  const [problem, setProblem] = useState<ApiProblem>();
  return (
    <ActionForm
      label={label}
      fields={PASSWORD_CHANGE_FIELDS}
      problem={problem}
      onProblem={setProblem}
      action={async () => {
        const mismatch = form.mismatch();
        if (mismatch) return mismatch;
        const { currentPassword, newPassword } = form.value;
        const { data, error } = await api.POST('/admin/v1/session/password', { body: { currentPassword, newPassword } });
        if (error) {
          const found = problemOf(error);
          // The server names the field; a message about the new password without one goes beside it.
          return found.field ? found : { ...found, field: /atual/.test(found.error) ? 'currentPassword' : 'newPassword' };
        }
        sessionState.csrfToken = data.csrfToken;
        form.reset();
        onChanged(data);
        return undefined;
      }}
    >
      <PasswordChangeFields form={form} problem={problem} />
    </ActionForm>
  );
}

/** "Minha conta": who is signed in, with which roles, and the password change. */
export function MyAccountPage({ session }: { session: OperatorSession }) {
  const [notice, setNotice] = useState<string>();
  return (
    <>
      <h1>Minha conta</h1>
      <section className="card" aria-label="Operador">
        <p>
          {session.operator.name} · {session.operator.email}
        </p>
        <p>Papéis: {session.operator.roles.map((role) => ROLE_LABEL[role]).join(', ')}</p>
      </section>
      <section className="card" aria-labelledby="senha-titulo">
        <h2 id="senha-titulo">Trocar a senha</h2>
        <p>Ao trocar a senha, as suas outras sessões do console são encerradas; esta continua.</p>
        {notice ? <Notice>{notice}</Notice> : null}
        <ChangePasswordForm label="Trocar a senha" onChanged={() => setNotice('Senha trocada. As outras sessões foram encerradas.')} />
      </section>
    </>
  );
}
