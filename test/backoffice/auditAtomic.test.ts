/**
 * A back-office action and its audit entry commit together (docs/decisions.md "Audit entries commit with
 * their action"): when the entry cannot be written, the action does not happen either. A trigger on
 * `audit_log` refusing one action stands in for a crash between the action and its entry.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { availableOf, createMerchant, fund, relaxLimits, useGateway } from '../support/gateway.ts';

const gateway = useGateway();

/** Makes every audit entry of `action` fail to be written. */
async function refuseAuditOf(action: string): Promise<void> {
  const db = gateway.deps.db;
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION audit_refused() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = '${action}' THEN RAISE EXCEPTION 'audit entry refused for the test'; END IF;
        RETURN NEW;
      END $$`,
    )
    .execute(db);
  await sql`CREATE TRIGGER audit_refused BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_refused()`.execute(db);
}

afterEach(async () => {
  await sql`DROP TRIGGER IF EXISTS audit_refused ON audit_log`.execute(gateway.deps.db);
  // The refused writes were logged as errors (500): expected here, and only here.
  expect(gateway.loggedErrors.every((line) => line.includes('audit entry refused for the test'))).toBe(true);
  gateway.loggedErrors.splice(0);
});

const auditOf = async (action: string, targetId: string) =>
  (await gateway.admin.GET('/admin/v1/audit-log', { params: { query: { action, targetId } } })).data?.entries ?? [];

describe('audit entries commit with their action', () => {
  it('an approval whose entry cannot be written does not happen; once it can, approval and entry are there together', async () => {
    const merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId, { withdrawalApprovalMode: 'manual' });
    await fund(gateway, merchant, 10_000);
    const pending = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 3_000, pixKey: '52998224725', pixKeyType: 'cpf' } });
    const transactionId = pending.data!.transactionId;
    expect(pending.data?.status).toBe('pending_approval');

    await refuseAuditOf('withdrawal.approve');
    const refused = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', { params: { path: { transactionId } } });
    expect(refused.response.status).toBe(500);
    const still = await gateway.admin.GET('/admin/v1/withdrawals', { params: { query: { accountId: merchant.accountId } } });
    expect(still.data?.withdrawals.find((row) => row.transactionId === transactionId)?.status).toBe('pending_approval');
    expect(await availableOf(merchant)).toBe(10_000);
    expect(await auditOf('withdrawal.approve', transactionId)).toEqual([]);

    await sql`DROP TRIGGER audit_refused ON audit_log`.execute(gateway.deps.db);
    const approved = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', { params: { path: { transactionId } } });
    expect(approved.response.status).toBe(200);
    expect(await availableOf(merchant)).toBe(10_000 - 3_100);
    const entries = await auditOf('withdrawal.approve', transactionId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ before: { status: 'pending_approval' }, after: { status: 'processing' } });
  });

  it('a hold, a key revocation and an account change whose entries cannot be written leave nothing behind', async () => {
    const merchant = await createMerchant(gateway);
    await fund(gateway, merchant, 10_000);

    await refuseAuditOf('hold.place');
    const hold = await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds', {
      params: { path: { accountId: merchant.accountId } },
      body: { amountCents: 2_000, reason: 'administrative' },
    });
    expect(hold.response.status).toBe(500);
    const holds = await gateway.admin.GET('/admin/v1/accounts/{accountId}/holds', { params: { path: { accountId: merchant.accountId } } });
    expect(holds.data?.holds).toEqual([]);
    const balance = await gateway.admin.GET('/admin/v1/accounts/{accountId}/balance', { params: { path: { accountId: merchant.accountId } } });
    expect(balance.data?.heldCents).toBe(0);
    expect(balance.data?.withdrawableCents).toBe(balance.data?.availableCents);
    await sql`DROP TRIGGER audit_refused ON audit_log`.execute(gateway.deps.db);

    await refuseAuditOf('apiKey.revoke');
    const keys = await gateway.admin.GET('/admin/v1/accounts/{accountId}/api-keys', { params: { path: { accountId: merchant.accountId } } });
    const keyId = keys.data!.apiKeys[0]!.keyId;
    const revoke = await gateway.admin.POST('/admin/v1/accounts/{accountId}/api-keys/{keyId}/revoke', { params: { path: { accountId: merchant.accountId, keyId } } });
    expect(revoke.response.status).toBe(500);
    expect((await merchant.client.GET('/v1/balance')).response.status).toBe(200);
    await sql`DROP TRIGGER audit_refused ON audit_log`.execute(gateway.deps.db);

    await refuseAuditOf('account.update');
    const change = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId: merchant.accountId } }, body: { blocked: true } });
    expect(change.response.status).toBe(500);
    const account = await gateway.admin.GET('/admin/v1/accounts/{accountId}', { params: { path: { accountId: merchant.accountId } } });
    expect(account.data?.blocked).toBe(false);
  });
});
