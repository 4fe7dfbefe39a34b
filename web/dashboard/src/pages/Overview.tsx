import { useEffect, useState } from 'react';
import { problemOf } from '../../../shared/api.ts';
import { formatBrl } from '../../../shared/format.ts';
import { Loading, Notice } from '../../../shared/ui.tsx';
import { api, type Schemas, type Session } from '../api.ts';
import { TransactionTable } from './Transactions.tsx';

const KYC_LABEL = { pending: 'em análise pela equipe PixGate', approved: 'aprovada', rejected: 'recusada' } as const;

/** Overview: the balance as the API reports it (available, active holds, withdrawable) and the latest transactions. */
export function OverviewPage({ session }: { session: Session }) {
  const [overview, setOverview] = useState<Schemas['Overview']>();
  const [problem, setProblem] = useState<string>();
  const [resent, setResent] = useState<string>();

  useEffect(() => {
    void (async () => {
      const { data, error } = await api.GET('/dashboard/api/v1/overview');
      if (error) setProblem(problemOf(error).error);
      else setOverview(data);
    })();
  }, []);

  const resend = async () => {
    const { error } = await api.POST('/dashboard/api/v1/email-verification/resend');
    setResent(error ? problemOf(error).error : 'Enviamos um novo link de confirmação.');
  };

  if (problem) return <p className="form-error" role="alert">{problem}</p>;
  if (!overview) return <Loading />;
  const { account, balance } = overview;
  return (
    <>
      <h1>Visão geral</h1>
      {!session.user.emailVerified ? (
        <p className="warning" role="status">
          Confirme seu e-mail para gerar chaves de API.{' '}
          <button type="button" className="secondary" onClick={() => void resend()}>
            Reenviar link
          </button>{' '}
          {resent}
        </p>
      ) : null}
      {account.kycStatus !== 'approved' ? (
        <p className="warning" role="status">
          Análise da conta (KYC): {KYC_LABEL[account.kycStatus]}. As chaves de API ficam disponíveis depois da aprovação.
        </p>
      ) : null}
      {account.blocked ? <p className="warning" role="status">A conta está bloqueada pela equipe PixGate. Fale com o suporte.</p> : null}
      <section className="metrics" aria-label="Saldo">
        <div className="metric">
          <div className="label">Disponível</div>
          <div className="value" data-testid="available">{formatBrl(balance.availableCents)}</div>
        </div>
        <div className="metric">
          <div className="label">Bloqueios ativos</div>
          <div className="value" data-testid="held">{formatBrl(balance.heldCents)}</div>
        </div>
        <div className="metric">
          <div className="label">Disponível para saque</div>
          <div className="value" data-testid="withdrawable">{formatBrl(balance.withdrawableCents)}</div>
        </div>
      </section>
      <h2>Últimas transações</h2>
      {overview.latestTransactions.length === 0 ? (
        <Notice>Nenhuma transação ainda. Crie uma cobrança pela API (POST /v1/pix) com uma chave de API.</Notice>
      ) : (
        <TransactionTable transactions={overview.latestTransactions} />
      )}
      <h2>Tarifas e limites</h2>
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
    </>
  );
}
