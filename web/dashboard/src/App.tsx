import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { navigate, useRoute } from '../../shared/router.ts';
import { Loading, Notice } from '../../shared/ui.tsx';
import { api, sessionState, type Session } from './api.ts';
import { ApiKeysPage } from './pages/ApiKeys.tsx';
import { AcceptInvitePage, ForgotPasswordPage, ResetPasswordPage, SignInPage, SignUpPage, VerifyEmailPage } from './pages/Auth.tsx';
import { DeliveriesPage } from './pages/Deliveries.tsx';
import { OutboxPage } from './pages/Outbox.tsx';
import { OverviewPage } from './pages/Overview.tsx';
import { RecipientsPage } from './pages/Recipients.tsx';
import { SecurityPage } from './pages/Security.tsx';
import { StatementPage } from './pages/Statement.tsx';
import { TransactionPage, TransactionsPage } from './pages/Transactions.tsx';
import { UsersPage } from './pages/Users.tsx';
import { WebhooksPage } from './pages/Webhooks.tsx';
import { WithdrawPage } from './pages/Withdraw.tsx';

/** Pages anyone can open (sign-in and the links sent by e-mail). */
const PUBLIC = new Set(['/entrar', '/cadastro', '/verificar-email', '/esqueci-a-senha', '/redefinir-senha', '/aceitar-convite', '/caixa-de-saida']);

const NAV = [
  ['/visao-geral', 'Visão geral'],
  ['/transacoes', 'Transações'],
  ['/extrato', 'Extrato'],
  ['/chaves-de-api', 'Chaves de API'],
  ['/webhooks', 'Webhooks'],
  ['/entregas', 'Entregas'],
  ['/destinatarios', 'Destinatários'],
  ['/saques', 'Saques'],
  ['/usuarios', 'Usuários'],
  ['/seguranca', 'Segurança'],
] as const;

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [expired, setExpired] = useState(false);
  // Outside production with no SMTP, e-mails go to the development outbox: the public pages point to it.
  const [devOutbox, setDevOutbox] = useState(false);

  const adopt = useCallback((next: Session | null) => {
    sessionState.csrfToken = next?.csrfToken;
    setSession(next);
  }, []);

  const refresh = useCallback(async () => {
    const { data } = await api.GET('/dashboard/api/v1/session');
    adopt(data ?? null);
  }, [adopt]);

  useEffect(() => {
    sessionState.onLost = () => {
      adopt(null);
      setExpired(true);
      navigate('/entrar');
    };
    void refresh();
    void api.GET('/dashboard/api/v1/dev/outbox', { params: { query: { limit: 1 } } }).then(({ response }) => setDevOutbox(response.ok));
  }, [adopt, refresh]);

  const outboxHint = devOutbox ? (
    <p className="muted">
      Ambiente local: os e-mails do PixGate ficam na <a href="#/caixa-de-saida">caixa de saída</a>.
    </p>
  ) : null;

  if (session === undefined) {
    return (
      <main className="narrow">
        <Loading />
      </main>
    );
  }
  const signedIn = session !== null && session.stage === 'complete';
  if (!PUBLIC.has(route.path) && !signedIn) {
    return (
      <main className="narrow">
        {expired ? <Notice>Sua sessão terminou. Entre novamente.</Notice> : null}
        <SignInPage session={session} onSession={(next) => { setExpired(false); adopt(next); }} />
        {outboxHint}
      </main>
    );
  }
  if (PUBLIC.has(route.path)) {
    const pages: Record<string, ReactElement> = {
      '/entrar': <SignInPage session={session} onSession={(next) => { setExpired(false); adopt(next); if (next.stage === 'complete') navigate('/visao-geral'); }} />,
      '/cadastro': <SignUpPage />,
      '/verificar-email': <VerifyEmailPage token={route.query.get('token') ?? ''} onVerified={() => void refresh()} />,
      '/esqueci-a-senha': <ForgotPasswordPage />,
      '/redefinir-senha': <ResetPasswordPage token={route.query.get('token') ?? ''} />,
      '/aceitar-convite': <AcceptInvitePage token={route.query.get('token') ?? ''} />,
      '/caixa-de-saida': <OutboxPage />,
    };
    return (
      <main className={route.path === '/caixa-de-saida' ? undefined : 'narrow'}>
        {expired && route.path === '/entrar' ? <Notice>Sua sessão terminou. Entre novamente.</Notice> : null}
        {pages[route.path]}
        {route.path === '/caixa-de-saida' ? null : outboxHint}
      </main>
    );
  }
  const current = session as Session;
  const signOut = async () => {
    await api.DELETE('/dashboard/api/v1/session');
    adopt(null);
    navigate('/entrar');
  };
  const transactionId = /^\/transacoes\/(tx_[0-9a-f]{24})$/.exec(route.path)?.[1];
  return (
    <>
      <header className="top">
        <a className="brand" href="#/visao-geral">
          PixGate
        </a>
        <nav aria-label="Seções do painel">
          {NAV.map(([path, label]) => (
            <a key={path} href={`#${path}`} aria-current={route.path.startsWith(path) ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <div className="who">
          <span>
            {current.user.name} · {current.account.legalName}
          </span>
          <button type="button" className="secondary" onClick={() => void signOut()}>
            Sair
          </button>
        </div>
      </header>
      <main>
        {transactionId ? (
          <TransactionPage transactionId={transactionId} session={current} />
        ) : route.path.startsWith('/transacoes') ? (
          <TransactionsPage />
        ) : route.path === '/extrato' ? (
          <StatementPage />
        ) : route.path === '/chaves-de-api' ? (
          <ApiKeysPage session={current} />
        ) : route.path === '/webhooks' ? (
          <WebhooksPage session={current} />
        ) : route.path === '/entregas' ? (
          <DeliveriesPage query={route.query} session={current} />
        ) : route.path === '/destinatarios' ? (
          <RecipientsPage session={current} />
        ) : route.path === '/saques' ? (
          <WithdrawPage session={current} />
        ) : route.path === '/usuarios' ? (
          <UsersPage session={current} />
        ) : route.path === '/seguranca' ? (
          <SecurityPage session={current} onChange={() => void refresh()} />
        ) : (
          <OverviewPage session={current} />
        )}
      </main>
    </>
  );
}
