import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { navigate, useRoute } from '../../shared/router.ts';
import { ActionButton, Loading, Notice } from '../../shared/ui.tsx';
import { $api, api, sessionState, type Session } from './api.ts';
import { attemptAction } from './data.ts';
import { AccountPage } from './pages/Account.tsx';
import { ApiKeysPage } from './pages/ApiKeys.tsx';
import { AcceptInvitePage, ForgotPasswordPage, ResetPasswordPage, SignInPage, SignUpPage, VerifyEmailPage } from './pages/Auth.tsx';
import { DeliveriesPage } from './pages/Deliveries.tsx';
import { DueChargePage } from './pages/DueCharge.tsx';
import { DueChargesPage } from './pages/DueCharges.tsx';
import { InfractionsPage } from './pages/Infractions.tsx';
import { NewChargePage } from './pages/NewCharge.tsx';
import { NewDueChargePage } from './pages/NewDueCharge.tsx';
import { NewPaymentLinkPage } from './pages/NewPaymentLink.tsx';
import { OutboxPage } from './pages/Outbox.tsx';
import { OverviewPage } from './pages/Overview.tsx';
import { PaymentLinkPage } from './pages/PaymentLink.tsx';
import { PaymentLinksPage } from './pages/PaymentLinks.tsx';
import { RecipientsPage } from './pages/Recipients.tsx';
import { NewRecurrencePage } from './pages/NewRecurrence.tsx';
import { RecurrencePage } from './pages/Recurrence.tsx';
import { RecurrencesPage } from './pages/Recurrences.tsx';
import { SecurityPage } from './pages/Security.tsx';
import { StatementPage } from './pages/Statement.tsx';
import { NewStaticQrCodePage } from './pages/NewStaticQrCode.tsx';
import { StaticQrCodePage } from './pages/StaticQrCode.tsx';
import { StaticQrCodesPage } from './pages/StaticQrCodes.tsx';
import { TransactionPage } from './pages/Transaction.tsx';
import { TransactionsPage } from './pages/Transactions.tsx';
import { UsersPage } from './pages/Users.tsx';
import { WebhooksPage } from './pages/Webhooks.tsx';
import { WithdrawPage } from './pages/Withdraw.tsx';

/** Pages anyone can open (sign-in and the links sent by e-mail). */
const PUBLIC = new Set(['/entrar', '/cadastro', '/verificar-email', '/esqueci-a-senha', '/redefinir-senha', '/aceitar-convite', '/caixa-de-saida']);

const NAV = [
  ['/visao-geral', 'Visão geral'],
  ['/transacoes', 'Transações'],
  ['/recorrencias', 'Recorrências'],
  ['/extrato', 'Extrato'],
  ['/chaves-de-api', 'Chaves de API'],
  ['/webhooks', 'Webhooks'],
  ['/entregas', 'Entregas'],
  ['/destinatarios', 'Destinatários'],
  ['/saques', 'Saques'],
  ['/infracoes-med', 'MED'],
  ['/usuarios', 'Usuários'],
  ['/seguranca', 'Segurança'],
  ['/conta', 'Conta'],
] as const;

/** What a short header label stands for (shown on hover; the page's heading says it in full). */
const NAV_TITLES: Record<string, string> = { '/infracoes-med': 'Infrações MED (Mecanismo Especial de Devolução)' };

/**
 * The header's section of a page: charges (immediate and with a due date), payment links and static QR codes are part of Transações. (The
 * header has no room for another link: at 1280 px it must stay one line, test/e2e/dashboard.e2e.ts.)
 */
const sectionOf = (path: string): string => (path.startsWith('/cobrancas') || path.startsWith('/links-de-pagamento') || path.startsWith('/qr-codes-estaticos') ? '/transacoes' : path);

/**
 * The page's session: GET /session, where 401 means "no session" (null), not an error. So reading it again
 * (after the e-mail is verified, after a security change) keeps the page as it is until the answer comes,
 * instead of unmounting it into "Carregando…" (which had posted a verification link twice).
 *
 * It carries the account (KYC, blocking, city) and the team's two-factor setting, which others change (the
 * operator approves the KYC, an owner on another device requires two-factor): it is read again every 30 s
 * while the tab is shown, whenever the tab comes back, and after the page's own changes (issue 38, defect 1).
 */
const SESSION_REFETCH_MS = 30_000;

const SESSION = {
  queryKey: ['get', '/dashboard/api/v1/session'] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Session | null> => {
    const { data, error, response } = await api.GET('/dashboard/api/v1/session', { signal });
    if (response.status === 401) return null;
    if (error) throw error;
    return data ?? null;
  },
  // Read again on every return to the tab, however recent: it is one small request.
  staleTime: 0,
  refetchInterval: SESSION_REFETCH_MS,
  refetchOnWindowFocus: true,
  retry: false,
};

/**
 * Moves focus to the page's heading after each navigation (a screen reader announces the new page, the
 * keyboard starts from it), once the heading is rendered.
 */
function useFocusHeading(path: string): void {
  const previous = useRef(path);
  useEffect(() => {
    // Only a new path is a navigation; the first page keeps the browser's own start.
    if (previous.current === path) return;
    previous.current = path;
    const focusHeading = (): boolean => {
      const heading = document.querySelector<HTMLElement>('#conteudo h1');
      if (!heading) return false;
      // The person already moved on inside the page (a field, a button): the focus stays there.
      const active = document.activeElement;
      if (active && active !== document.body && active !== heading && !active.closest('header')) return true;
      heading.setAttribute('tabindex', '-1');
      heading.focus();
      return true;
    };
    if (focusHeading()) return;
    // The heading of a page still loading comes a moment later.
    let tries = 0;
    const timer = window.setInterval(() => {
      tries += 1;
      if (focusHeading() || tries > 40) window.clearInterval(timer);
    }, 50);
    return () => window.clearInterval(timer);
  }, [path]);
}

export function App() {
  const route = useRoute();
  const queryClient = useQueryClient();
  const sessionQuery = useQuery(SESSION);
  const [expired, setExpired] = useState(false);
  // Outside production with no SMTP, e-mails go to the development outbox: the public pages point to it.
  const outboxProbe = $api.useQuery('get', '/dashboard/api/v1/dev/outbox', { params: { query: { limit: 1 } } }, { retry: false, staleTime: Infinity, refetchInterval: false, refetchOnWindowFocus: false });
  const devOutbox = outboxProbe.isSuccess;
  const signOutMutation = $api.useMutation('delete', '/dashboard/api/v1/session');
  useFocusHeading(route.path);

  // A session answer (or none, 401) is the page's session; its CSRF token goes with every change.
  const session: Session | null | undefined = sessionQuery.isPending ? undefined : (sessionQuery.data ?? null);
  sessionState.csrfToken = session?.csrfToken;

  const adopt = useCallback(
    (next: Session) => {
      sessionState.csrfToken = next.csrfToken;
      queryClient.setQueryData(SESSION.queryKey, next);
    },
    [queryClient],
  );
  /** Nothing of the previous session stays in memory: every cached answer goes, the session is read again (401: none). */
  const forget = useCallback(() => {
    sessionState.csrfToken = undefined;
    queryClient.clear();
  }, [queryClient]);
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: SESSION.queryKey }), [queryClient]);

  useEffect(() => {
    sessionState.onLost = () => {
      forget();
      setExpired(true);
      navigate('/entrar');
    };
  }, [forget]);

  const signedIn = session !== null && session !== undefined && session.stage === 'complete';
  // A signed-in user who opens the sign-in page goes to the overview.
  useEffect(() => {
    if (signedIn && route.path === '/entrar') navigate('/visao-geral');
  }, [signedIn, route.path]);

  const outboxHint = devOutbox ? (
    <p className="muted">
      Ambiente local: os e-mails do PixGate ficam na <a href="#/caixa-de-saida">caixa de saída</a>.
    </p>
  ) : null;

  if (session === undefined || (signedIn && route.path === '/entrar')) {
    return (
      <main className="narrow" id="conteudo">
        <Loading />
      </main>
    );
  }
  // Signed in: on #/entrar the effect above goes on to the overview; elsewhere the page asked for stays.
  const onSession = (next: Session) => {
    setExpired(false);
    adopt(next);
  };
  if (!PUBLIC.has(route.path) && !signedIn) {
    return (
      <main className="narrow" id="conteudo">
        {expired ? <Notice>Sua sessão terminou. Entre novamente.</Notice> : null}
        <SignInPage session={session} onSession={onSession} />
        {outboxHint}
      </main>
    );
  }
  if (PUBLIC.has(route.path)) {
    const pages: Record<string, ReactElement> = {
      '/entrar': <SignInPage session={session} onSession={onSession} />,
      '/cadastro': <SignUpPage />,
      '/verificar-email': <VerifyEmailPage token={route.query.get('token') ?? ''} onVerified={refresh} />,
      '/esqueci-a-senha': <ForgotPasswordPage />,
      '/redefinir-senha': <ResetPasswordPage token={route.query.get('token') ?? ''} />,
      '/aceitar-convite': <AcceptInvitePage token={route.query.get('token') ?? ''} />,
      '/caixa-de-saida': <OutboxPage />,
    };
    return (
      <main className={route.path === '/caixa-de-saida' ? undefined : 'narrow'} id="conteudo">
        {expired && route.path === '/entrar' ? <Notice>Sua sessão terminou. Entre novamente.</Notice> : null}
        {pages[route.path]}
        {route.path === '/caixa-de-saida' ? null : outboxHint}
      </main>
    );
  }
  const current = session as Session;
  const signOut = async () => {
    await attemptAction(() => signOutMutation.mutateAsync({}));
    forget();
    navigate('/entrar');
  };
  const transactionId = /^\/transacoes\/([^/]+)$/.exec(route.path)?.[1];
  const dueChargeId = /^\/cobrancas-com-vencimento\/(?!nova$)([^/]+)$/.exec(route.path)?.[1];
  const justCreated = route.query.has('criada') ? 'created' : route.query.has('repetida') ? 'repeated' : undefined;
  const paymentLinkId = /^\/links-de-pagamento\/(?!novo$)([^/]+)$/.exec(route.path)?.[1];
  const linkJustCreated = route.query.has('criado') ? 'created' : route.query.has('repetido') ? 'repeated' : undefined;
  const staticQrCodeId = /^\/qr-codes-estaticos\/(?!novo$)([^/]+)$/.exec(route.path)?.[1];
  const recurrenceId = /^\/recorrencias\/(?!nova$)([^/]+)$/.exec(route.path)?.[1];
  const qrCodeJustCreated = route.query.has('criado') ? 'created' : route.query.has('repetido') ? 'repeated' : undefined;
  // The account requires two-factor of the whole team: a user without it sees only the enrolment (issue 22).
  const mustEnrol = current.teamTwoFactorRequired === true && !current.user.twoFactorEnabled;
  return (
    <>
      <a className="skip-link" href="#conteudo" onClick={(event) => {
        // The hash is the router's: move focus without navigating.
        event.preventDefault();
        const heading = document.querySelector<HTMLElement>('#conteudo h1');
        heading?.setAttribute('tabindex', '-1');
        heading?.focus();
      }}>
        Pular para o conteúdo
      </a>
      <header className="top">
        <a className="brand" href="#/visao-geral">
          PixGate
        </a>
        <nav aria-label="Seções do painel">
          {NAV.map(([path, label]) => (
            <a key={path} href={`#${path}`} title={NAV_TITLES[path]} aria-current={sectionOf(route.path).startsWith(path) ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <div className="who">
          <span className="who-name">
            {current.user.name} · {current.account.legalName}
          </span>
          <ActionButton className="secondary" label="Sair" onClick={signOut} />
        </div>
      </header>
      <main id="conteudo">
        {mustEnrol ? (
          <SecurityPage session={current} onChange={refresh} />
        ) : transactionId ? (
          <TransactionPage key={transactionId} transactionId={transactionId} session={current} />
        ) : route.path === '/cobrancas/nova' ? (
          <NewChargePage session={current} />
        ) : route.path === '/cobrancas-com-vencimento/nova' ? (
          <NewDueChargePage session={current} />
        ) : dueChargeId ? (
          <DueChargePage key={dueChargeId} transactionId={dueChargeId} session={current} justCreated={justCreated} />
        ) : route.path === '/cobrancas-com-vencimento' ? (
          <DueChargesPage session={current} />
        ) : route.path === '/links-de-pagamento/novo' ? (
          <NewPaymentLinkPage session={current} />
        ) : paymentLinkId ? (
          <PaymentLinkPage key={paymentLinkId} linkId={paymentLinkId} session={current} justCreated={linkJustCreated} />
        ) : route.path === '/links-de-pagamento' ? (
          <PaymentLinksPage session={current} />
        ) : route.path === '/qr-codes-estaticos/novo' ? (
          <NewStaticQrCodePage session={current} />
        ) : staticQrCodeId ? (
          <StaticQrCodePage key={staticQrCodeId} staticQrCodeId={staticQrCodeId} session={current} justCreated={qrCodeJustCreated} />
        ) : route.path === '/qr-codes-estaticos' ? (
          <StaticQrCodesPage session={current} />
        ) : route.path === '/recorrencias/nova' ? (
          <NewRecurrencePage session={current} />
        ) : recurrenceId ? (
          <RecurrencePage key={recurrenceId} recurrenceId={recurrenceId} session={current} justCreated={justCreated} />
        ) : route.path === '/recorrencias' ? (
          <RecurrencesPage session={current} />
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
        ) : route.path === '/infracoes-med' ? (
          <InfractionsPage session={current} />
        ) : route.path === '/usuarios' ? (
          <UsersPage session={current} />
        ) : route.path === '/seguranca' ? (
          <SecurityPage session={current} onChange={refresh} />
        ) : route.path === '/conta' ? (
          <AccountPage key={`${current.account.city ?? ''}-${current.account.state ?? ''}`} session={current} />
        ) : (
          <OverviewPage session={current} />
        )}
      </main>
    </>
  );
}
