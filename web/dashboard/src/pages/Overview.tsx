import { useState } from 'react';
import { formatBrl, formatDocument } from '../../../shared/format.ts';
import { FactList } from '../../../shared/table.tsx';
import { ActionButton, Money, Notice, QueryState } from '../../../shared/ui.tsx';
import { $api, type Schemas, type Session } from '../api.ts';
import { attemptAction } from '../data.ts';
import { TransactionTable } from './Transactions.tsx';

const KYC_LABEL = { pending: 'em análise pela equipe PixGate', approved: 'aprovada', rejected: 'recusada' } as const;

/** Overview: the balance as the API reports it (available, active holds, withdrawable) and the latest transactions. */
export function OverviewPage({ session }: { session: Session }) {
  const overviewQuery = $api.useQuery('get', '/dashboard/api/v1/overview');
  const resendMutation = $api.useMutation('post', '/dashboard/api/v1/email-verification/resend');
  const [resent, setResent] = useState<string>();

  const resend = async () => {
    const outcome = await attemptAction(() => resendMutation.mutateAsync({}));
    setResent(outcome.ok ? 'Enviamos um novo link de confirmação.' : outcome.problem.error);
  };

  const overview = overviewQuery.data;
  return (
    <>
      <h1>Visão geral</h1>
      <p className="muted">
        {session.account.legalName} · CNPJ <span className="nowrap">{formatDocument(session.account.companyCnpj)}</span>
      </p>
      {!session.user.emailVerified ? (
        <p className="warning" role="status">
          Confirme seu e-mail para gerar chaves de API. <ActionButton className="secondary" label="Reenviar link" onClick={resend} /> {resent}
        </p>
      ) : null}
      <QueryState isPending={overviewQuery.isPending} error={overviewQuery.error}>
        {overview ? (
          <>
            {overview.account.kycStatus !== 'approved' ? (
              <p className="warning" role="status">
                Análise da conta (KYC): {KYC_LABEL[overview.account.kycStatus]}. As chaves de API ficam disponíveis depois da aprovação.
              </p>
            ) : null}
            {overview.account.blocked ? <p className="warning" role="status">A conta está bloqueada pela equipe PixGate. Fale com o suporte.</p> : null}
            {overview.account.city === undefined ? (
              <p className="warning" role="status">
                A cidade da empresa não foi informada: o Pix das suas cobranças mostra SAO PAULO a quem paga. <a href="#/conta">Informe a cidade em Conta</a>.
              </p>
            ) : null}
            <section className="metrics" aria-label="Saldo">
              <div className="metric">
                <div className="label">Disponível</div>
                <div className="value money" data-testid="available">
                  {formatBrl(overview.balance.availableCents)}
                </div>
              </div>
              <div className="metric">
                <div className="label">Bloqueios ativos</div>
                <div className="value money" data-testid="held">
                  {formatBrl(overview.balance.heldCents)}
                </div>
              </div>
              <div className="metric">
                <div className="label">Disponível para saque</div>
                <div className="value money" data-testid="withdrawable">
                  {formatBrl(overview.balance.withdrawableCents)}
                </div>
              </div>
            </section>
            <section className="metrics" aria-label="Recorrências (Pix Automático)">
              <div className="metric">
                <div className="label">Recorrências ativas</div>
                <div className="value" data-testid="recurrences-active">
                  <a href="#/recorrencias">{overview.recurrences.activeCount.toLocaleString('pt-BR')}</a>
                </div>
              </div>
              <div className="metric">
                <div className="label">Ciclos a vencer em 7 dias</div>
                <div className="value" data-testid="recurrence-cycles-due">
                  {overview.recurrences.dueNext7Days.count.toLocaleString('pt-BR')}
                </div>
                {overview.recurrences.dueNext7Days.count > 0 ? <p className="hint">{formatBrl(overview.recurrences.dueNext7Days.amountCents)} a receber</p> : null}
              </div>
            </section>
            <p className="actions">
              <a className="button" href="#/cobrancas/nova">
                Nova cobrança
              </a>
            </p>
            <h2>Últimas transações</h2>
            {overview.latestTransactions.length === 0 ? (
              <Notice>Nenhuma transação ainda. Crie uma cobrança em “Nova cobrança” ou pela API (POST /v1/pix) com uma chave de API.</Notice>
            ) : (
              <TransactionTable transactions={overview.latestTransactions} />
            )}
            <h2>Tarifas e limites</h2>
            <AccountTerms account={overview.account} />
          </>
        ) : null}
      </QueryState>
    </>
  );
}

function AccountTerms({ account }: { account: Schemas['DashboardAccount'] }) {
  const percent = (bps: number) => `${(bps / 100).toLocaleString('pt-BR')}%`;
  return (
    <FactList
      label="Tarifas e limites da conta"
      facts={[
        { name: 'Tarifa por cobrança paga', value: <span className="nowrap">{formatBrl(account.fees.chargeFixedCents)} + {percent(account.fees.chargeBps)}</span> },
        { name: 'Tarifa por saque', value: <span className="nowrap">{formatBrl(account.fees.withdrawalFixedCents)} + {percent(account.fees.withdrawalBps)}</span> },
        { name: 'Saque máximo', value: <Money cents={account.limits.withdrawalMaxCents} /> },
        { name: 'Limite diário de saques', value: <Money cents={account.limits.withdrawalDailyCapCents} /> },
        { name: 'Limite mensal de saques', value: <Money cents={account.limits.withdrawalMonthlyCapCents} /> },
        { name: 'Cobranças por hora', value: account.limits.chargesPerHour.toLocaleString('pt-BR') },
        { name: 'Saques por hora', value: account.limits.withdrawalsPerHour.toLocaleString('pt-BR') },
        { name: 'Destinatários ativos (máximo)', value: account.limits.recipientLimit.toLocaleString('pt-BR') },
        { name: 'IPs permitidos', value: account.ipAllowlist.length === 0 ? 'Qualquer IP' : account.ipAllowlist.join(', ') },
        { name: 'Cidade do Pix', value: account.city ? `${account.city} (${account.state ?? ''})` : 'Não informada' },
      ]}
    />
  );
}
