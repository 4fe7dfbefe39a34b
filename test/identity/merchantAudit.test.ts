import { describe, expect, it } from 'vitest';
import { DASHBOARD_AUDITED_ACTIONS } from '../../src/identity/dashboardAudit.ts';
import { freshEmail, signUpOwner } from '../support/dashboardAccounts.ts';
import { useGateway } from '../support/gateway.ts';

/**
 * Issue 22 ("sign-ins and merchant actions in the audit log"): what a merchant's user changes in security
 * and money settings from the dashboard is in the audit log the console reads, with the user as actor
 * (type `user`), and never a secret (the API key, the webhook secret).
 */
const gateway = useGateway();

describe('merchant actions in the audit log', () => {
  it('records API keys created and revoked, webhook URLs created, changed, rotated and deleted, and invitations, without secrets', async () => {
    const owner = await signUpOwner(gateway);
    const key = await owner.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'servidor' } });
    const keyId = key.data?.keyId ?? '';
    await owner.browser.api.POST('/dashboard/api/v1/api-keys/{keyId}/revoke', { params: { path: { keyId } } });
    const hook = await owner.browser.api.POST('/dashboard/api/v1/webhooks', { body: { url: 'http://127.0.0.1:9/ganchos', events: ['transaction.paid'] } });
    const endpointId = hook.data?.endpointId ?? '';
    await owner.browser.api.PATCH('/dashboard/api/v1/webhooks/{endpointId}', { params: { path: { endpointId } }, body: { enabled: false } });
    const rotated = await owner.browser.api.POST('/dashboard/api/v1/webhooks/{endpointId}/rotate-secret', { params: { path: { endpointId } } });
    await owner.browser.api.DELETE('/dashboard/api/v1/webhooks/{endpointId}', { params: { path: { endpointId } } });
    const invited = await owner.browser.api.POST('/dashboard/api/v1/users', { body: { email: freshEmail('convite'), name: 'Pessoa Convidada', role: 'viewer' } });

    const log = await gateway.admin.GET('/admin/v1/audit-log', { params: { query: { accountId: owner.accountId, limit: 100 } } });
    const entries = (log.data?.entries ?? []).filter((entry) => entry.actor.type === 'user' && !entry.action.startsWith('user.signed_in'));
    expect(entries.map((entry) => [entry.action, entry.targetId]).reverse()).toEqual([
      ['api_key.created', keyId],
      ['api_key.revoked', keyId],
      ['webhook.created', endpointId],
      ['webhook.updated', endpointId],
      ['webhook.secret_rotated', endpointId],
      ['webhook.deleted', endpointId],
      ['user.invited', invited.data?.userId],
    ]);
    for (const entry of entries) expect(entry.actor).toEqual({ type: 'user', id: owner.userId, name: 'Dona da Loja' });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(key.data?.apiKey ?? 'no key');
    expect(text).not.toContain(hook.data?.secret ?? 'no secret');
    expect(text).not.toContain(rotated.data?.secret ?? 'no secret');
    expect(DASHBOARD_AUDITED_ACTIONS).toContain('withdrawal.requested');
  });
});
