import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { ADMIN_TOKEN, createMerchant, useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 4: one account whose legal name was stored empty (a sign-up with "   " before names
 * were checked after normalising) made GET /admin/v1/accounts answer 500, and with it the console's
 * accounts page and `npm run admin -- accounts:list`, for every operator. No stored row may break a list:
 * the back office shows such a name within the contract's bounds.
 */
const gateway = useGateway();

async function storeLegalName(accountId: string, legalName: string): Promise<void> {
  // Written past the services, as a row from before the checks (or edited by hand) would be.
  await sql`UPDATE accounts SET legal_name = ${legalName} WHERE id = ${accountId}`.execute(gateway.deps.db);
}

describe('GET /admin/v1/accounts with stored rows the checks would refuse today', () => {
  it('lists every account (200), empty, one-character, over-long and badly spaced legal names shown within the contract', async () => {
    const empty = await createMerchant(gateway);
    const short = await createMerchant(gateway);
    const long = await createMerchant(gateway);
    const spaced = await createMerchant(gateway);
    const fine = await createMerchant(gateway, { legalName: 'Loja Intacta Ltda' });
    await storeLegalName(empty.accountId, '   ');
    await storeLegalName(short.accountId, 'X');
    await storeLegalName(long.accountId, 'L'.repeat(130));
    await storeLegalName(spaced.accountId, '  Loja \t  Espaçada\n Ltda ');

    const listed = await gateway.admin.GET('/admin/v1/accounts');
    expect(listed.response.status).toBe(200);
    const names = new Map(listed.data?.accounts.map((account) => [account.accountId, account.legalName]));
    expect(names.get(empty.accountId)).toBe('(sem razão social)');
    expect(names.get(short.accountId)).toBe('X (razão social incompleta)');
    expect(names.get(long.accountId)).toBe(`${'L'.repeat(119)}…`);
    expect(names.get(spaced.accountId)).toBe('Loja Espaçada Ltda');
    expect(names.get(fine.accountId)).toBe('Loja Intacta Ltda');

    const one = await gateway.admin.GET('/admin/v1/accounts/{accountId}', { params: { path: { accountId: empty.accountId } } });
    expect(one.response.status).toBe(200);
    // The account can still be acted on (here: blocked and unblocked).
    const blocked = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId: empty.accountId } }, body: { blocked: true } });
    expect(blocked.response.status).toBe(200);
    expect(gateway.loggedErrors).toEqual([]);
  });

  it('keeps `npm run admin -- accounts:list` working', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['accounts:list'], {
      env: { PIXGATE_ADMIN_URL: gateway.adminBaseUrl, ADMIN_TOKEN },
      cwd: process.cwd(),
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      fetch: globalThis.fetch,
    });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out.join('\n')).toContain('(sem razão social)');
  });
});
