import { useState } from 'react';
import { formatCnpj, formatCpf, formatDateTime } from '../../../shared/format.ts';
import { Notice, QueryState } from '../../../shared/ui.tsx';
import { $api, may, type OperatorSession } from '../api.ts';
import { ApiKeysSection } from './account/ApiKeys.tsx';
import { BalanceSection } from './account/Balance.tsx';
import { FeesSection } from './account/Fees.tsx';
import { HoldsSection } from './account/Holds.tsx';
import { IpAllowlistSection } from './account/IpAllowlist.tsx';
import { LimitsSection } from './account/Limits.tsx';
import { RecipientsSection } from './account/Recipients.tsx';
import { StatusSection } from './account/Status.tsx';
import { WebhooksSection } from './account/Webhooks.tsx';

export { RecipientReview } from './account/Recipients.tsx';

/**
 * One account: KYC and blocking, balance, fees, limits, IP allowlist, holds, recipients, webhooks and
 * deliveries, API keys; each section with its own queries (pages/account/). The App mounts it per account
 * (`key`), so nothing of one account's page (a notice, a typed value) carries to another's.
 */
export function AccountPage({ accountId, session }: { accountId: string; session: OperatorSession }) {
  const { data: account, isPending, error } = $api.useQuery('get', '/admin/v1/accounts/{accountId}', { params: { path: { accountId } } });
  const [notice, setNotice] = useState<string>();
  const canUpdate = may(session, 'updateAccount');
  const sections = { accountId, session, onChanged: setNotice };
  return (
    <>
      <p>
        <a href="#/contas">← Contas</a>
      </p>
      <QueryState isPending={isPending} error={error}>
        {account ? (
          <>
            <h1>{account.legalName}</h1>
            <p className="muted">
              {account.accountId} · CNPJ {formatCnpj(account.companyCnpj)} · responsável CPF {formatCpf(account.responsibleCpf)} · {account.email} ·{' '}
              {account.city ? `${account.city} (${account.state ?? ''})` : 'cidade não informada (Pix com SAO PAULO)'} · criada em {formatDateTime(account.createdAt)}
            </p>
            {notice ? <Notice>{notice}</Notice> : null}
            <StatusSection account={account} session={session} onChanged={setNotice} />
            <BalanceSection accountId={accountId} />
            <FeesSection account={account} canUpdate={canUpdate} onChanged={setNotice} />
            <LimitsSection account={account} canUpdate={canUpdate} onChanged={setNotice} />
            <IpAllowlistSection account={account} canUpdate={canUpdate} onChanged={setNotice} />
            <HoldsSection {...sections} />
            <RecipientsSection {...sections} />
            <WebhooksSection {...sections} />
            <ApiKeysSection {...sections} />
          </>
        ) : null}
      </QueryState>
    </>
  );
}
