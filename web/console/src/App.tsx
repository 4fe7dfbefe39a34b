import { useCallback, useEffect, useState } from 'react';
import { navigate, useRoute } from '../../shared/router.ts';
import { Loading, Notice } from '../../shared/ui.tsx';
import { api, may, ROLE_LABEL, sessionState, type OperatorSession } from './api.ts';
import { AccountPage } from './pages/Account.tsx';
import { AccountsPage } from './pages/Accounts.tsx';
import { AuditPage } from './pages/Audit.tsx';
import { OperatorsPage } from './pages/Operators.tsx';
import { RecipientQueuePage } from './pages/RecipientQueue.tsx';
import { SignInPage } from './pages/SignIn.tsx';
import { WithdrawalQueuePage } from './pages/WithdrawalQueue.tsx';

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<OperatorSession | null | undefined>(undefined);
  const [expired, setExpired] = useState(false);

  const adopt = useCallback((next: OperatorSession | null) => {
    sessionState.csrfToken = next?.csrfToken;
    setSession(next);
  }, []);

  useEffect(() => {
    sessionState.onLost = () => {
      adopt(null);
      setExpired(true);
    };
    void (async () => {
      const { data } = await api.GET('/admin/v1/session');
      adopt(data ?? null);
    })();
  }, [adopt]);

  if (session === undefined) {
    return (
      <main className="narrow">
        <Loading />
      </main>
    );
  }
  if (session === null || session.stage !== 'complete') {
    return (
      <main className="narrow">
        {expired ? <Notice>Sua sessão terminou. Entre novamente.</Notice> : null}
        <SignInPage
          session={session}
          onSession={(next) => {
            setExpired(false);
            adopt(next);
          }}
        />
      </main>
    );
  }
  const signOut = async () => {
    await api.DELETE('/admin/v1/session');
    adopt(null);
    navigate('/contas');
  };
  const nav: [string, string, boolean][] = [
    ['/contas', 'Contas', true],
    ['/destinatarios', 'Fila de destinatários', true],
    ['/saques', 'Fila de saques', true],
    ['/auditoria', 'Auditoria', may(session, 'listAuditLog')],
    ['/operadores', 'Operadores', may(session, 'listOperators')],
  ];
  const accountId = /^\/contas\/(acc_[0-9a-f]{24})$/.exec(route.path)?.[1];
  return (
    <>
      <header className="top">
        <a className="brand" href="#/contas">
          PixGate · Console
        </a>
        <nav aria-label="Seções do console">
          {nav
            .filter(([, , shown]) => shown)
            .map(([path, label]) => (
              <a key={path} href={`#${path}`} aria-current={route.path.startsWith(path) ? 'page' : undefined}>
                {label}
              </a>
            ))}
        </nav>
        <div className="who">
          <span>
            {session.operator.name} · {session.operator.roles.map((role) => ROLE_LABEL[role]).join(', ')}
          </span>
          <button type="button" className="secondary" onClick={() => void signOut()}>
            Sair
          </button>
        </div>
      </header>
      <main>
        {accountId ? (
          <AccountPage accountId={accountId} session={session} />
        ) : route.path === '/destinatarios' ? (
          <RecipientQueuePage session={session} />
        ) : route.path === '/saques' ? (
          <WithdrawalQueuePage session={session} />
        ) : route.path === '/auditoria' ? (
          <AuditPage query={route.query} />
        ) : route.path === '/operadores' ? (
          <OperatorsPage session={session} />
        ) : (
          <AccountsPage session={session} />
        )}
      </main>
    </>
  );
}
