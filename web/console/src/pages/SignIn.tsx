import { useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { ActionForm, Field } from '../../../shared/ui.tsx';
import { TotpEnrolment } from '../../../shared/phone.tsx';
import { api, sessionState, type OperatorSession, type Schemas } from '../api.ts';
import { ChangePasswordForm } from './MyAccount.tsx';

/**
 * Operator sign-in: e-mail and password, then the authenticator app's code. TOTP is mandatory: at the first
 * sign-in (or after an admin reset the credentials) the operator enrols an app before anything else opens,
 * then replaces the temporary password with their own (issue 22).
 */
export function SignInPage({ session, onSession }: { session: OperatorSession | null; onSession: (session: OperatorSession) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<OperatorSession | null>(session && (session.stage !== 'complete' || session.passwordChangeRequired === true) ? session : null);
  const [setup, setSetup] = useState<Schemas['OperatorTotpSetup']>();
  const [problem, setProblem] = useState<ApiProblem>();

  const sendCode = async () => {
    const { data, error } = await api.POST('/admin/v1/session/totp', { body: { totpCode: code } });
    if (error) return problemOf(error);
    sessionState.csrfToken = data.csrfToken;
    // A temporary password is changed next, before anything else opens.
    if (data.passwordChangeRequired === true) setPending(data);
    onSession(data);
    return undefined;
  };

  if (pending?.stage === 'complete' && pending.passwordChangeRequired === true) {
    return (
      <>
        <h1>Escolha a sua senha</h1>
        <p>
          Você entrou com uma senha temporária. Escolha agora a sua própria senha: nada mais abre antes disso. Na senha atual, informe a
          temporária.
        </p>
        <ChangePasswordForm label="Salvar a nova senha" onChanged={onSession} />
      </>
    );
  }

  if (pending?.stage === 'enrol') {
    return (
      <>
        <h1>Configure o aplicativo autenticador</h1>
        <p>A verificação em duas etapas é obrigatória para a equipe. Leia o QR code com o aplicativo e informe o primeiro código.</p>
        {!setup ? (
          <ActionForm
            label="Gerar QR code"
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              const { data, error } = await api.POST('/admin/v1/session/totp/setup');
              if (error) return problemOf(error);
              setSetup(data);
              return undefined;
            }}
          />
        ) : (
          <>
            <TotpEnrolment setup={setup} />
            <ActionForm label="Confirmar" fields={['totpCode']} problem={problem} onProblem={setProblem} action={sendCode}>
              <Field label="Código do aplicativo autenticador" name="totpCode" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} problem={problem} />
            </ActionForm>
          </>
        )}
      </>
    );
  }
  if (pending?.stage === 'password') {
    return (
      <>
        <h1>Verificação em duas etapas</h1>
        <ActionForm label="Entrar" fields={['totpCode']} problem={problem} onProblem={setProblem} action={sendCode}>
          <Field label="Código do aplicativo autenticador" name="totpCode" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} problem={problem} />
        </ActionForm>
      </>
    );
  }
  return (
    <>
      <h1>Console da equipe PixGate</h1>
      <ActionForm
        label="Entrar"
        fields={['email', 'password']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          const { data, error } = await api.POST('/admin/v1/session', { body: { email, password } });
          if (error) return problemOf(error);
          sessionState.csrfToken = data.csrfToken;
          if (data.stage === 'complete' && data.passwordChangeRequired !== true) onSession(data);
          else setPending(data);
          return undefined;
        }}
      >
        <Field label="E-mail" name="email" type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.target.value)} problem={problem} />
        <Field label="Senha" name="password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} problem={problem} />
      </ActionForm>
      <p className="muted">Cada operador entra com o próprio e-mail. Acesso só pela rede interna.</p>
    </>
  );
}
