import { useState } from 'react';
import { problemOf, type ApiProblem } from '../../../shared/api.ts';
import { PASSWORD_CHANGE_FIELDS, PasswordChangeFields, usePasswordChange } from '../../../shared/password.tsx';
import { TotpEnrolment } from '../../../shared/phone.tsx';
import { ActionForm, CopyButton, Field, Notice } from '../../../shared/ui.tsx';
import { api, sessionState, type Schemas, type Session } from '../api.ts';
import { SessionsSection } from './SecuritySessions.tsx';

/** The codes shown once: after enrolment and after a new set is made. */
function RecoveryCodesOnce({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section className="secret" aria-label="Códigos de recuperação">
      <h3>Códigos de recuperação</h3>
      <p>
        <strong>Guarde agora: estes códigos não serão mostrados de novo.</strong> Cada um entra uma vez, se você perder o aplicativo autenticador.
      </p>
      <ul data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton text={codes.join('\n')} label="Copiar códigos" done="Códigos copiados" />
        <button type="button" className="secondary" onClick={onDone}>
          Já guardei
        </button>
      </div>
    </section>
  );
}

function CodeForm(props: { label: string; danger?: boolean; run: (totpCode: string) => Promise<ApiProblem | undefined> }) {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  return (
    <ActionForm label={props.label} fields={['totpCode']} problem={problem} onProblem={setProblem} secondary={props.danger} action={() => props.run(code)}>
      <Field label="Código do aplicativo autenticador" name="totpCode" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} problem={problem} />
    </ActionForm>
  );
}

/** Change the password: the current one, the new one twice, and the app's code when two-factor is on (issue 22). */
function PasswordSection({ session }: { session: Session }) {
  const form = usePasswordChange();
  const [totpCode, setTotpCode] = useState('');
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const needsCode = session.user.twoFactorEnabled;
  return (
    <section className="card" aria-labelledby="senha-titulo">
      <h2 id="senha-titulo">Trocar a senha</h2>
      <p>Ao trocar a senha, as suas outras sessões (outros navegadores e dispositivos) são encerradas; esta continua.</p>
      {notice ? <Notice>{notice}</Notice> : null}
      <ActionForm
        label="Trocar a senha"
        fields={[...PASSWORD_CHANGE_FIELDS, 'totpCode']}
        problem={problem}
        onProblem={setProblem}
        action={async () => {
          const mismatch = form.mismatch();
          if (mismatch) return mismatch;
          const { currentPassword, newPassword } = form.value;
          const { data, error } = await api.POST('/dashboard/api/v1/password', {
            body: { currentPassword, newPassword, ...(needsCode ? { totpCode } : {}) },
          });
          if (error) return problemOf(error);
          form.reset();
          setTotpCode('');
          setNotice(
            data.otherSessionsEnded === 0
              ? 'Senha trocada.'
              : `Senha trocada. ${data.otherSessionsEnded === 1 ? '1 outra sessão foi encerrada' : `${data.otherSessionsEnded} outras sessões foram encerradas`}.`,
          );
          return undefined;
        }}
      >
        <PasswordChangeFields form={form} problem={problem} />
        {needsCode ? (
          <Field label="Código do aplicativo autenticador" name="totpCode" inputMode="numeric" autoComplete="one-time-code" required value={totpCode} onChange={(event) => setTotpCode(event.target.value)} problem={problem} />
        ) : null}
      </ActionForm>
    </section>
  );
}

/** Two-factor: enrol (QR code of the otpauth URI, the secret as text, a first code, recovery codes), renew codes, turn off. */
export function SecurityPage({ session, onChange }: { session: Session; onChange: () => void }) {
  const [setup, setSetup] = useState<Schemas['TotpSetup']>();
  const [codes, setCodes] = useState<string[]>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const enabled = session.user.twoFactorEnabled;

  return (
    <>
      <h1>Segurança</h1>
      {session.teamTwoFactorRequired === true && !enabled ? (
        <p className="form-error" role="alert">
          Esta conta exige verificação em duas etapas de toda a equipe. Ative-a abaixo para continuar usando o painel.
        </p>
      ) : null}
      {notice ? <Notice>{notice}</Notice> : null}
      {codes ? (
        <RecoveryCodesOnce
          codes={codes}
          onDone={() => {
            setCodes(undefined);
            onChange();
          }}
        />
      ) : null}
      <section className="card" aria-label="Verificação em duas etapas">
        <h2>Verificação em duas etapas</h2>
        <p>
          Situação: <strong>{enabled ? 'ativa' : 'desativada'}</strong>
          {enabled ? ` · ${session.recoveryCodesLeft ?? 0} códigos de recuperação restantes` : ''}
        </p>
        {!enabled && !setup ? (
          <ActionForm
            label="Ativar verificação em duas etapas"
            problem={problem}
            onProblem={setProblem}
            action={async () => {
              const { data, error } = await api.POST('/dashboard/api/v1/two-factor/setup');
              if (error) return problemOf(error);
              setSetup(data);
              return undefined;
            }}
          />
        ) : null}
        {!enabled && setup ? (
          <>
            <TotpEnrolment setup={setup} />
            <p>Depois informe o primeiro código que o aplicativo mostrar.</p>
            <CodeForm
              label="Confirmar e ativar"
              run={async (totpCode) => {
                const { data, error } = await api.POST('/dashboard/api/v1/two-factor/confirm', { body: { totpCode } });
                if (error) return problemOf(error);
                setSetup(undefined);
                setCodes(data.recoveryCodes);
                setNotice('Verificação em duas etapas ativada.');
                return undefined;
              }}
            />
          </>
        ) : null}
        {enabled ? (
          <div className="grid-2">
            <div>
              <h3>Novos códigos de recuperação</h3>
              <CodeForm
                label="Gerar novos códigos"
                run={async (totpCode) => {
                  const { data, error } = await api.POST('/dashboard/api/v1/two-factor/recovery-codes', { body: { totpCode } });
                  if (error) return problemOf(error);
                  setCodes(data.recoveryCodes);
                  setNotice('Códigos anteriores invalidados.');
                  return undefined;
                }}
              />
            </div>
            <div>
              <h3>Desativar</h3>
              <CodeForm
                label="Desativar verificação em duas etapas"
                danger
                run={async (totpCode) => {
                  const { error } = await api.POST('/dashboard/api/v1/two-factor/disable', { body: { totpCode } });
                  if (error) return problemOf(error);
                  setNotice('Verificação em duas etapas desativada. Saques pelo painel ficam indisponíveis até reativá-la.');
                  onChange();
                  return undefined;
                }}
              />
            </div>
          </div>
        ) : null}
      </section>
      <PasswordSection session={session} />
      <SessionsSection onEndedCurrent={() => sessionState.onLost()} />
      <section className="card" aria-label="Sessão">
        <h2>Sessão</h2>
        <p>
          Você entrou como {session.user.email}. A sessão termina após 30 minutos sem uso ou 12 horas depois da entrada; ao sair, ela é encerrada no
          servidor.
        </p>
      </section>
    </>
  );
}
