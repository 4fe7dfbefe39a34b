import { useEffect, useRef, useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { DocumentField } from '../../../shared/phone.tsx';
import { ActionForm, Field, Notice } from '../../../shared/ui.tsx';
import { $api, sessionState, type Session } from '../api.ts';
import { CityFields, type StateCode } from '../CityFields.tsx';
import { attempt } from '../data.ts';

/** Sign-in: e-mail and password, then (two-factor on) the app's code or a recovery code. */
export function SignInPage({ session, onSession }: { session: Session | null; onSession: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [pending, setPending] = useState<Session | null>(session?.stage === 'password' ? session : null);
  const [problem, setProblem] = useState<ApiProblem>();
  const signIn = $api.useMutation('post', '/dashboard/api/v1/session');
  const secondFactor = $api.useMutation('post', '/dashboard/api/v1/session/second-factor');

  if (pending) {
    return (
      <>
        <h1>Verificação em duas etapas</h1>
        <ActionForm
          label="Confirmar"
          fields={['totpCode', 'recoveryCode']}
          problem={problem}
          onProblem={setProblem}
          action={async () => {
            const body = useRecovery ? { recoveryCode: code } : { totpCode: code };
            const done = await attempt(() => secondFactor.mutateAsync({ body }));
            if (!done.ok) return done.problem;
            onSession(done.data);
            return undefined;
          }}
        >
          <Field
            label={useRecovery ? 'Código de recuperação' : 'Código do aplicativo autenticador'}
            name={useRecovery ? 'recoveryCode' : 'totpCode'}
            inputMode={useRecovery ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            problem={problem}
          />
        </ActionForm>
        <button type="button" className="secondary" onClick={() => { setUseRecovery(!useRecovery); setCode(''); setProblem(undefined); }}>
          {useRecovery ? 'Usar o código do aplicativo' : 'Usar um código de recuperação'}
        </button>
      </>
    );
  }
  return (
    <>
      <h1>Entrar no painel</h1>
      <ActionForm
        label="Entrar"
        fields={['email', 'password']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          const signedIn = await attempt(() => signIn.mutateAsync({ body: { email, password } }));
          if (!signedIn.ok) return signedIn.problem;
          const data = signedIn.data;
          sessionState.csrfToken = data.csrfToken;
          if (data.stage === 'password') setPending(data);
          else onSession(data);
          return undefined;
        }}
      >
        <Field label="E-mail" name="email" type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.target.value)} problem={problem} />
        <Field label="Senha" name="password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} problem={problem} />
      </ActionForm>
      <p>
        <a href="#/cadastro">Criar conta</a> · <a href="#/esqueci-a-senha">Esqueci a senha</a>
      </p>
    </>
  );
}

export function SignUpPage() {
  const [form, setForm] = useState({ legalName: '', companyCnpj: '', responsibleCpf: '', city: '', state: '', name: '', email: '', password: '' });
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<ApiProblem>();
  const signUp = $api.useMutation('post', '/dashboard/api/v1/signup');
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  if (done) {
    return (
      <>
        <h1>Confirme seu e-mail</h1>
        <Notice>Enviamos um link de confirmação para {form.email}. Abra-o para confirmar o e-mail e depois entre no painel.</Notice>
        <p>
          <a href="#/entrar">Entrar</a>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Criar conta</h1>
      <p className="muted">A conta é analisada pela equipe PixGate (KYC) antes de gerar chaves de API.</p>
      <ActionForm
        label="Criar conta"
        fields={Object.keys(form)}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          const sent = await attempt(() => signUp.mutateAsync({ body: { ...form, state: form.state as StateCode } }));
          if (!sent.ok) return sent.problem;
          setDone(true);
          return undefined;
        }}
      >
        <Field label="Razão social" name="legalName" value={form.legalName} onChange={set('legalName')} problem={problem} autoComplete="organization" />
        <DocumentField label="CNPJ da empresa" name="companyCnpj" kind="cnpj" value={form.companyCnpj} onChange={(companyCnpj) => setForm({ ...form, companyCnpj })} problem={problem} />
        <DocumentField label="CPF do responsável" name="responsibleCpf" kind="cpf" value={form.responsibleCpf} onChange={(responsibleCpf) => setForm({ ...form, responsibleCpf })} problem={problem} />
        <CityFields city={form.city} state={form.state} problem={problem} onChange={(place) => setForm({ ...form, ...place })} />
        <Field label="Seu nome" name="name" value={form.name} onChange={set('name')} problem={problem} autoComplete="name" />
        <Field label="E-mail" name="email" type="email" value={form.email} onChange={set('email')} problem={problem} autoComplete="email" />
        <Field label="Senha" name="password" type="password" value={form.password} onChange={set('password')} problem={problem} autoComplete="new-password" hint="De 10 a 128 caracteres, diferente do e-mail." />
      </ActionForm>
      <p>
        Já tem conta? <a href="#/entrar">Entrar</a>
      </p>
    </>
  );
}

/**
 * The link of the verification e-mail: its token is posted once (a token works once; posting it again
 * would answer "Link inválido" after it worked, issue 22 defect 12), and the page ends on the outcome.
 */
export function VerifyEmailPage({ token, onVerified }: { token: string; onVerified: () => void }) {
  const verify = $api.useMutation('post', '/dashboard/api/v1/email-verification');
  const posted = useRef<string>(undefined);
  // The latest callback, without making it a reason to post again.
  const verified = useRef(onVerified);
  verified.current = onVerified;
  const { mutate } = verify;
  useEffect(() => {
    if (posted.current === token) return;
    posted.current = token;
    mutate({ body: { token } }, { onSuccess: () => verified.current() });
  }, [token, mutate]);
  return (
    <>
      <h1>Confirmação de e-mail</h1>
      {verify.isPending || verify.isIdle ? <p role="status">Confirmando…</p> : null}
      {verify.isSuccess ? <Notice>E-mail confirmado.</Notice> : null}
      {verify.isError ? (
        <p className="form-error" role="alert">
          {problemOf(verify.error).error}
        </p>
      ) : null}
      <p>
        <a href="#/visao-geral">Ir para o painel</a>
      </p>
    </>
  );
}

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<ApiProblem>();
  const reset = $api.useMutation('post', '/dashboard/api/v1/password-reset');
  return (
    <>
      <h1>Esqueci a senha</h1>
      {done ? <Notice>Se o e-mail estiver cadastrado, enviamos um link para redefinir a senha (válido por 1 hora).</Notice> : null}
      <ActionForm
        label="Enviar link"
        fields={['email']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          const sent = await attempt(() => reset.mutateAsync({ body: { email } }));
          if (!sent.ok) return sent.problem;
          setDone(true);
          return undefined;
        }}
      >
        <Field label="E-mail" name="email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} problem={problem} />
      </ActionForm>
      <p>
        <a href="#/entrar">Voltar para entrar</a>
      </p>
    </>
  );
}

function ChoosePassword({ title, token, purpose }: { title: string; token: string; purpose: 'reset' | 'invite' }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const [problem, setProblem] = useState<ApiProblem>();
  const confirmReset = $api.useMutation('post', '/dashboard/api/v1/password-reset/confirm');
  const acceptInvitation = $api.useMutation('post', '/dashboard/api/v1/invitations/accept');
  if (done) {
    return (
      <>
        <h1>{title}</h1>
        <Notice>Senha definida. Entre com ela.</Notice>
        <p>
          <a href="#/entrar">Entrar</a>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{title}</h1>
      <ActionForm
        label="Salvar senha"
        fields={['password']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          const body = { token, password };
          const saved = await attempt(() => (purpose === 'reset' ? confirmReset.mutateAsync({ body }) : acceptInvitation.mutateAsync({ body })));
          if (!saved.ok) return saved.problem;
          setDone(true);
          return undefined;
        }}
      >
        <Field label="Nova senha" name="password" type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} problem={problem} hint="De 10 a 128 caracteres, diferente do e-mail." />
      </ActionForm>
    </>
  );
}

export function ResetPasswordPage({ token }: { token: string }) {
  return <ChoosePassword title="Redefinir senha" token={token} purpose="reset" />;
}

export function AcceptInvitePage({ token }: { token: string }) {
  return <ChoosePassword title="Aceitar convite" token={token} purpose="invite" />;
}
