import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { navigate, useRoute } from '../../shared/router.ts';
import { ActionButton, Loading, Notice } from '../../shared/ui.tsx';
import { $api, may, ROLE_LABEL, sessionState, type OperatorSession } from './api.ts';
import './console.css';
import { AccountPage } from './pages/Account.tsx';
import { AccountsPage } from './pages/Accounts.tsx';
import { AuditPage } from './pages/Audit.tsx';
import { OperatorsPage } from './pages/Operators.tsx';
import { RecipientQueuePage } from './pages/RecipientQueue.tsx';
import { MyAccountPage } from './pages/MyAccount.tsx';
import { SignInPage } from './pages/SignIn.tsx';
import { WithdrawalQueuePage } from './pages/WithdrawalQueue.tsx';

export function App() {
  const route = useRoute();
  const queryClient = useQueryClient();
  // The session at start (a query like the pages' data); afterwards the one sign-in, sign-out or its loss set.
  const initial = $api.useQuery('get', '/admin/v1/session', {}, { retry: false, staleTime: Infinity, gcTime: Infinity, refetchInterval: false, refetchOnWindowFocus: false });
  const [chosen, setChosen] = useState<OperatorSession | null | undefined>(undefined);
  const [expired, setExpired] = useState(false);
  const session = chosen !== undefined ? chosen : initial.isPending ? undefined : (initial.data ?? null);
  useEffect(() => {
    // The session found at start: its CSRF token goes with the console's changes.
    if (chosen === undefined && initial.data) sessionState.csrfToken = initial.data.csrfToken;
  }, [chosen, initial.data]);

  const adopt = useCallback(
    (next: OperatorSession | null) => {
      sessionState.csrfToken = next?.csrfToken;
      // Nothing read under one session is shown under another (or after signing out).
      if (next === null || next.stage === 'complete') queryClient.clear();
      setChosen(next);
    },
    [queryClient],
  );

  const leave = $api.useMutation('delete', '/admin/v1/session');

  useEffect(() => {
    sessionState.onLost = () => {
      adopt(null);
      setExpired(true);
    };
  }, [adopt]);

  if (session === undefined) {
    return (
      <main className="narrow">
        <Loading />
      </main>
    );
  }
  if (session === null || session.stage !== 'complete' || session.passwordChangeRequired === true) {
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
    // Signed out here whatever the server answered (a session already gone answers 401).
    await leave.mutateAsync({}).catch(() => undefined);
    adopt(null);
    navigate('/contas');
  };
  const nav: [string, string, boolean][] = [
    ['/contas', 'Contas', true],
    ['/destinatarios', 'Fila de destinatários', true],
    ['/saques', 'Fila de saques', true],
    ['/auditoria', 'Auditoria', may(session, 'listAuditLog')],
    ['/operadores', 'Operadores', may(session, 'listOperators')],
    ['/minha-conta', 'Minha conta', true],
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
          <ActionButton label="Sair" className="secondary" onClick={signOut} />
        </div>
      </header>
      <main>
        {accountId ? (
          <AccountPage key={accountId} accountId={accountId} session={session} />
        ) : route.path === '/destinatarios' ? (
          <RecipientQueuePage session={session} />
        ) : route.path === '/saques' ? (
          <WithdrawalQueuePage session={session} />
        ) : route.path === '/auditoria' ? (
          <AuditPage query={route.query} />
        ) : route.path === '/operadores' ? (
          <OperatorsPage session={session} />
        ) : route.path === '/minha-conta' ? (
          <MyAccountPage session={session} />
        ) : (
          <AccountsPage session={session} />
        )}
      </main>
    </>
  );
}
