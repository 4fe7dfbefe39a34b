import { useState } from 'react';
import { formatBrl, formatDocument } from '../../../shared/format.ts';
import { ActionButton, Notice, QueryState } from '../../../shared/ui.tsx';
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
  return (
    <div className="table-scroll">
      <table>
        <caption className="sr-only">Tarifas e limites da conta</caption>
        <tbody>
          <tr>
            <th scope="row">Tarifa por cobrança paga</th>
            <td>
              {formatBrl(account.fees.chargeFixedCents)} + {(account.fees.chargeBps / 100).toLocaleString('pt-BR')}%
            </td>
          </tr>
          <tr>
            <th scope="row">Tarifa por saque</th>
            <td>
              {formatBrl(account.fees.withdrawalFixedCents)} + {(account.fees.withdrawalBps / 100).toLocaleString('pt-BR')}%
            </td>
          </tr>
          <tr>
            <th scope="row">Saque máximo</th>
            <td>{formatBrl(account.limits.withdrawalMaxCents)}</td>
          </tr>
          <tr>
            <th scope="row">Limite diário de saques</th>
            <td>{formatBrl(account.limits.withdrawalDailyCapCents)}</td>
          </tr>
          <tr>
            <th scope="row">Limite mensal de saques</th>
            <td>{formatBrl(account.limits.withdrawalMonthlyCapCents)}</td>
          </tr>
          <tr>
            <th scope="row">Cobranças por hora / saques por hora</th>
            <td>
              {account.limits.chargesPerHour} / {account.limits.withdrawalsPerHour}
            </td>
          </tr>
          <tr>
            <th scope="row">Destinatários ativos (máximo)</th>
            <td>{account.limits.recipientLimit}</td>
          </tr>
          <tr>
            <th scope="row">IPs permitidos</th>
            <td>{account.ipAllowlist.length === 0 ? 'Qualquer IP' : account.ipAllowlist.join(', ')}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
