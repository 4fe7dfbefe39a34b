import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { CAP_COUNTED_BY_TRIGGER } from '../../src/db/migrations/009_double_entry.ts';
import { CAP_COUNTED_STATUSES } from '../../src/withdrawals/withdrawal.states.ts';

/**
 * The layering of docs/architecture.md is enforced by eslint.config.js. These tests show each rule firing
 * on a deliberate violation (so the check cannot silently stop working) and the source tree passing.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('layering rules (eslint.config.js)', () => {
  it('refuses the HTTP error type outside src/http/', async () => {
    const found = await problems(
      'src/charges/probe.ts',
      "import { ApiError } from '../http/errors.ts';\nexport const boom = () => { throw new ApiError(422, 'x'); };\n",
    );
    expect(found.some((problem) => problem.startsWith('no-restricted-imports') && problem.includes('domain error'))).toBe(true);
  });

  it('accepts the HTTP error type inside src/http/', async () => {
    const found = await problems('src/http/probe.ts', "import { ApiError } from './errors.ts';\nexport const error = new ApiError(400, 'x');\n");
    expect(found.filter((problem) => problem.startsWith('no-restricted'))).toEqual([]);
  });

  it('refuses SQL outside repositories and migrations', async () => {
    const found = await problems(
      'src/charges/charge.service.ts',
      "import { sql } from 'kysely';\nexport const read = (db: any) => db.selectFrom('transactions').selectAll().execute();\nexport const raw = sql`SELECT 1`;\n",
    );
    expect(found.filter((problem) => problem.startsWith('no-restricted-syntax')).length).toBe(2);
  });

  it("refuses a status written outside its state machine's transition, and accepts it in one", async () => {
    const write = "export const f = (trx: any, id: string) => updateTransaction(trx, id, { status: 'paid', updated_at: new Date() });\n";
    const outside = await problems('src/withdrawals/withdrawal.settlement.ts', write);
    expect(outside.some((problem) => problem.startsWith('no-restricted-syntax') && problem.includes("state machine's transition"))).toBe(true);
    const refund = await problems('src/refunds/refund.service.ts', "export const g = (trx: any, id: string) => updateRefund(trx, id, { ...{}, status: 'failed' });\n");
    expect(refund.some((problem) => problem.includes("state machine's transition"))).toBe(true);
    const inside = await problems('src/withdrawals/withdrawal.machine.ts', write);
    expect(inside.filter((problem) => problem.includes("state machine's transition"))).toEqual([]);
  });

  it('accepts SQL in a repository', async () => {
    const found = await problems(
      'src/charges/charge.repository.ts',
      "import { sql } from 'kysely';\nexport const raw = sql`SELECT 1`;\n",
    );
    expect(found.filter((problem) => problem.startsWith('no-restricted'))).toEqual([]);
  });

  it('refuses a route handler that imports a repository, kysely or the database connection', async () => {
    for (const source of ['./transaction.repository.ts', 'kysely', '../db/connect.ts']) {
      const found = await problems('src/transactions/transaction.routes.ts', `import { x } from '${source}';\nexport const y = x;\n`);
      expect(found.some((problem) => problem.startsWith('no-restricted-imports') && problem.includes('Route handlers call services')), source).toBe(true);
    }
  });

  it('refuses a route handler that touches the database handle', async () => {
    const found = await problems('src/balance/balance.routes.ts', 'export const read = (deps: { db: unknown }) => deps.db;\n');
    expect(found.some((problem) => problem.includes('do not touch the database handle'))).toBe(true);
  });

  it('refuses a gateway import in the integration kit (src/sdk/), and accepts the generated types', async () => {
    for (const source of ['../platform/config.ts', '../events/event.types.ts', '../../scripts/lib/json.ts']) {
      const found = await problems('src/sdk/probe.ts', `import { x } from '${source}';\nexport const y = x;\n`);
      expect(found.some((problem) => problem.startsWith('no-restricted-imports') && problem.includes('integration kit')), source).toBe(true);
    }
    const allowed = await problems('src/sdk/probe.ts', "import type { paths } from '../../generated/api-types.ts';\nimport { Webhook } from 'standardwebhooks';\nexport type P = paths;\nexport const W = Webhook;\n");
    expect(allowed.filter((problem) => problem.startsWith('no-restricted'))).toEqual([]);
  });

  it('refuses the integration kit in the gateway', async () => {
    for (const [file, source] of [
      ['src/charges/charge.service.ts', '../sdk/client.ts'],
      ['src/charges/charge.routes.ts', 'pixgate/client'],
    ] as const) {
      const found = await problems(file, `import { x } from '${source}';\nexport const y = x;\n`);
      expect(found.some((problem) => problem.includes('does not depend on its own integration kit')), file).toBe(true);
    }
  });

  // Issue 34: upward imports fail the lint.
  it('refuses the wiring (src/runtime.ts) anywhere but the entry points', async () => {
    for (const file of ['src/charges/charge.service.ts', 'src/jobs/probe.ts', 'src/http/probe.ts', 'src/charges/charge.repository.ts']) {
      const found = await problems(file, `import { buildRuntime } from '../runtime.ts';\nexport const y = buildRuntime;\n`);
      expect(found.some((problem) => problem.includes('wiring at the top')), file).toBe(true);
    }
    const main = await problems('src/main.ts', "import { buildRuntime } from './runtime.ts';\nexport const y = buildRuntime;\n");
    expect(main.filter((problem) => problem.startsWith('no-restricted'))).toEqual([]);
  });

  it('refuses a provider adapter above the port, and accepts it in src/provider/ and the wiring', async () => {
    for (const [file, source] of [
      ['src/jobs/probe.ts', '../provider/efi/efi.callbacks.ts'],
      ['src/charges/charge.service.ts', '../provider/simulated.ts'],
      ['src/http/probe.ts', '../provider/efi/efi.provider.ts'],
    ] as const) {
      const found = await problems(file, `import { x } from '${source}';\nexport const y = x;\n`);
      expect(found.some((problem) => problem.includes('nothing knows which provider runs')), file).toBe(true);
    }
    for (const [file, source] of [
      ['src/provider/factory.ts', './efi/efi.provider.ts'],
      ['src/runtime.ts', './provider/efi/efi.callbacks.ts'],
    ] as const) {
      const found = await problems(file, `import { x } from '${source}';\nexport const y = x;\n`);
      expect(found.filter((problem) => problem.startsWith('no-restricted')), file).toEqual([]);
    }
  });

  it('refuses a repository that imports a service, a job or HTTP', async () => {
    for (const source of ['./charge.service.ts', '../jobs/jobs.ts', '../http/merchantApi.ts', './withdrawal.settlement.ts']) {
      const found = await problems('src/charges/charge.repository.ts', `import { x } from '${source}';\nexport const y = x;\n`);
      expect(found.some((problem) => problem.includes('repository sits below the services')), source).toBe(true);
    }
    const states = await problems('src/withdrawals/withdrawalTotals.repository.ts', "import { CAP_COUNTED_STATUSES } from './withdrawal.states.ts';\nexport const y = CAP_COUNTED_STATUSES;\n");
    expect(states.filter((problem) => problem.startsWith('no-restricted'))).toEqual([]);
  });

  it('refuses a feature module in src/db/ (row and status types live below the features)', async () => {
    for (const [file, source] of [
      ['src/db/tables/transactions.ts', '../../charges/charge.states.ts'],
      ['src/db/connect.ts', '../platform/config.ts'],
      ['src/db/tables/refunds.ts', '../../refunds/refund.states.ts'],
    ] as const) {
      const found = await problems(file, `import type { x } from '${source}';\nexport type Y = x;\n`);
      expect(found.some((problem) => problem.includes('src/db/ sits below the features')), file).toBe(true);
    }
    const allowed = await problems('src/db/tables/transactions.ts', "import type { ChargeStatus } from './statuses.ts';\nimport type { Json } from './json.ts';\nexport type Y = [ChargeStatus, Json];\n");
    expect(allowed.filter((problem) => problem.startsWith('no-restricted'))).toEqual([]);
  });

  it('refuses live code in a migration, and accepts an earlier migration', async () => {
    const found = await problems('src/db/migrations/099_probe.ts', "import { CAP_COUNTED_STATUSES } from '../../withdrawals/withdrawal.states.ts';\nexport const y = CAP_COUNTED_STATUSES;\n");
    expect(found.some((problem) => problem.includes('A migration records what it did'))).toBe(true);
    const earlier = await problems('src/db/migrations/099_probe.ts', "import { totalsFollowFunction } from './007_withdrawal_totals.ts';\nexport const y = totalsFollowFunction;\n");
    expect(earlier.filter((problem) => problem.startsWith('no-restricted'))).toEqual([]);
  });

  it('keeps the statuses the caps count in code equal to those migration 009 wrote into the database trigger', () => {
    expect([...CAP_COUNTED_STATUSES].sort()).toEqual([...CAP_COUNTED_BY_TRIGGER].sort());
  });

  it('finds no violation in src/', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts']);
    const violations = results.flatMap((result) =>
      result.messages.filter((message) => message.ruleId?.startsWith('no-restricted')).map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(violations).toEqual([]);
    // ESLint over every file of src/ (about 15 s alone on 2 cores): files run side by side since issue 33, and
    // beside the lint step in CI, so it gets a minute rather than the default 20 s.
  }, 60_000);
});
