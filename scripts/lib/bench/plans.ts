/**
 * EXPLAIN (ANALYZE, BUFFERS) of the gateway's hot queries on the `--scale` database, run through the
 * repositories themselves: a Kysely instance whose pg client prefixes every data statement with EXPLAIN,
 * so the plans are those of the exact SQL the gateway sends (no copy to drift). Statements that write (a
 * charge, a withdrawal, the delivery claim, the purge) run inside a transaction that is rolled back.
 *
 * A plan "scans" when it reads a large table (more than SCAN_ROWS rows) with a Seq Scan, or any node of it
 * throws away more than SCAN_ROWS rows by filter: its cost grows with the data.
 */
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from '../../../src/db/schema.ts';
import { listAccountEvents, listTransactionEvents } from '../../../src/events/event.repository.ts';
import { readBalance, lockBalance } from '../../../src/ledger/ledger.repository.ts';
import {
  claimIdempotencyKey,
  findLiveIdempotentTransaction,
  findTransaction,
  insertChargeClaimingKey,
  insertTransaction,
  listOpenWithdrawalsDue,
  listStuckSends,
  listTransactions,
  listWithdrawals,
  lockDueCharges,
  openWithdrawalFigures,
  searchTransactions,
} from '../../../src/transactions/transaction.repository.ts';
import { claimDueDeliveries, dueDeliveryBacklog, listAttempts, purgeDeliveriesBefore } from '../../../src/webhooks/delivery.repository.ts';
import { withdrawnInPeriods } from '../../../src/withdrawals/withdrawalTotals.repository.ts';

/** A plan that reads or filters out more rows than this is a scan. */
export const SCAN_ROWS = 10_000;

export interface PlanFinding {
  name: string;
  /** Execution time reported by EXPLAIN ANALYZE (all its statements), ms. */
  executionMs: number;
  /** Shared buffers hit + read. */
  buffers: number;
  /** Why it scans (empty: it does not). */
  scans: string[];
  /** One line per plan node: type, relation/index, actual rows. */
  outline: string[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

interface Explained {
  Plan: PlanNode;
  'Execution Time': number;
}

function walk(node: PlanNode, depth: number, visit: (node: PlanNode, depth: number) => void): void {
  visit(node, depth);
  for (const child of node.Plans ?? []) walk(child, depth + 1, visit);
}

/** Collects the plans of every data statement run through it. */
class ExplainingClient {
  plans: Explained[] = [];
  private readonly client: pg.PoolClient;
  constructor(client: pg.PoolClient) {
    this.client = client;
  }

  async query(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    if (/^\s*(begin|commit|rollback|savepoint|release|set)\b/i.test(text)) return this.client.query(text, values);
    const result = await this.client.query<{ 'QUERY PLAN': Explained[] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values);
    this.plans.push(...result.rows[0]!['QUERY PLAN']);
    return { rows: [], rowCount: 0, command: 'SELECT', oid: 0, fields: [] };
  }

  release(): void {
    this.client.release();
  }
}

/** Rolled back after the work: what a write would do, measured without keeping it. */
class Rollback extends Error {}

export interface PlanSubjects {
  /** The loaded account. */
  accountId: string;
  /** One of its transactions. */
  transactionId: string;
}

export interface Explainer {
  /** Kysely whose data statements are EXPLAINed (they return no rows) on one connection. */
  db: Kysely<Database>;
  /** Runs `work` through `db`, collecting the plans of its statements into one finding. */
  explain(name: string, work: () => Promise<unknown>): Promise<PlanFinding>;
  /** Runs `work` in a transaction that is rolled back. */
  inRollback(work: (trx: Transaction<Database>) => Promise<unknown>): Promise<void>;
  close(): Promise<void>;
}

/**
 * An explaining connection to the database. `settings` are applied to the session first (the tests use
 * `enable_seqscan = off` to ask whether an index CAN serve a query on a small table).
 */
export async function explainer(databaseUrl: string, settings: string[] = []): Promise<Explainer> {
  // One connection: a statement outside the rolled-back transaction could not run (and commit) beside it;
  // it fails after the timeout instead.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: 5_000 });
  pool.on('connect', (client) => {
    for (const setting of settings) void client.query(`SET ${setting}`);
  });
  const sizes = new Map<string, number>();
  const tables = await pool.query<{ relname: string; reltuples: number }>(
    `SELECT relname, reltuples::float8 AS reltuples FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`,
  );
  for (const row of tables.rows) sizes.set(row.relname, Number(row.reltuples));
  let current: ExplainingClient | undefined;
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: {
        connect: async () => {
          current = new ExplainingClient(await pool.connect());
          return current as unknown as pg.PoolClient;
        },
        end: () => pool.end(),
      } as unknown as pg.Pool,
    }),
  });
  const inRollback = async (work: (trx: Transaction<Database>) => Promise<unknown>) => {
    try {
      await db.transaction().execute(async (trx) => {
        await work(trx);
        throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
  };
  const explain = async (name: string, work: () => Promise<unknown>) => {
    const plans: Explained[] = [];
    try {
      await work();
    } catch {
      // The repository function may complain about the empty rows EXPLAIN gives back; the plans are taken.
    }
    if (current) {
      plans.push(...current.plans);
      current.plans = [];
    }
    const scans: string[] = [];
    const outline: string[] = [];
    let buffers = 0;
    for (const plan of plans) {
      walk(plan.Plan, 0, (node, depth) => {
        const on = node['Index Name'] ? `${node['Relation Name'] ? `${node['Relation Name']} ` : ''}using ${node['Index Name']}` : (node['Relation Name'] ?? '');
        const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
        const removed = (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
        outline.push(`${'  '.repeat(depth)}${node['Node Type']}${on ? ` on ${on}` : ''} (rows ${rows}${removed ? `, removed by filter ${removed}` : ''})`);
        if (depth === 0) buffers += (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0);
        const table = node['Relation Name'];
        if (node['Node Type'] === 'Seq Scan' && table && (sizes.get(table) ?? 0) > SCAN_ROWS) {
          scans.push(`Seq Scan on ${table} (${Math.round(sizes.get(table) ?? 0)} rows)`);
        } else if (removed > SCAN_ROWS) {
          scans.push(`${node['Node Type']} on ${on} threw away ${removed} rows by filter`);
        }
      });
    }
    return {
      name,
      executionMs: Math.round(plans.reduce((sum, plan) => sum + plan['Execution Time'], 0) * 1000) / 1000,
      buffers,
      scans,
      outline,
    };
  };
  return { db, explain, inRollback, close: () => db.destroy() };
}

/** Swallows the error a repository function throws on the empty rows of an EXPLAIN, so the next statement runs. */
const quietly = (work: Promise<unknown>) => work.catch(() => undefined);

export async function explainHotQueries(databaseUrl: string, subjects: PlanSubjects): Promise<PlanFinding[]> {
  const session = await explainer(databaseUrl);
  const { db, inRollback } = session;
  const { accountId, transactionId } = subjects;
  const now = new Date();
  const findings: PlanFinding[] = [];
  const explain = async (name: string, work: () => Promise<unknown>) => {
    findings.push(await session.explain(name, work));
  };

  try {
    await explain('list transactions (limit 100)', () => listTransactions(db, accountId, { limit: 100 }));
    await explain('list charges (type=pix_in, limit 100)', () => listTransactions(db, accountId, { type: 'pix_in', limit: 100 }));
    await explain('list withdrawals (type=withdrawal, limit 100)', () => listTransactions(db, accountId, { type: 'withdrawal', limit: 100 }));
    await explain('single read', () => findTransaction(db, accountId, transactionId));
    // The dashboard's search (issue 38): each kind on its index; a rare and a common reference prefix.
    const search = (name: string, terms: Parameters<typeof searchTransactions>[3], range: 'rare' | 'common') =>
      explain(`dashboard search: ${name}`, () => inRollback((trx) => searchTransactions(trx, accountId, { limit: 51 }, terms, range)));
    await search('rare reference prefix', { referencePrefix: 'scale-ref-12345' }, 'rare');
    await search('common reference prefix (90 % of rows)', { referencePrefix: 'scale-ref-' }, 'common');
    await search('amount', { referencePrefix: '50,00', amountCents: 5_000 }, 'rare');
    await search('id prefix', { referencePrefix: transactionId.slice(0, 8), idPrefix: transactionId.slice(0, 8) }, 'rare');
    await explain('balance', () => readBalance(db, accountId));
    await explain('externalRef replay lookup', () => findLiveIdempotentTransaction(db, accountId, 'charge', 'scale-ref-999999', now.getTime()));
    await explain('new charge (claim + insert)', () =>
      inRollback((trx) =>
        insertChargeClaimingKey(
          trx,
          {
            id: 'tx_000000000000000000000001',
            accountId,
            amountCents: 1000,
            feeCents: 0,
            externalRef: 'plan-check',
            pixPayload: '000201',
            expiresAt: new Date(now.getTime() + 3_600_000),
            createdAt: now,
            customer: { name: 'Maria da Silva', email: 'maria@example.com', phone: '11987654321', document: { number: '52998224725', type: 'cpf' } },
            providerRef: 'plan-check',
          },
          { expiresAt: new Date(now.getTime() + 7 * 86_400_000), now },
        ),
      ),
    );
    const day = new Date(now.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
    await explain('new withdrawal (lock, claim, cap totals, insert + trigger)', () =>
      inRollback(async (trx) => {
        await quietly(lockBalance(trx, accountId));
        await quietly(claimIdempotencyKey(trx, {
          accountId,
          scope: 'withdrawal',
          externalRef: 'plan-check',
          transactionId: 'tx_000000000000000000000002',
          expiresAt: new Date(now.getTime() + 7 * 86_400_000),
          now,
        }));
        await quietly(withdrawnInPeriods(trx, accountId, { day, month: `${day.slice(0, 8)}01` }));
        await quietly(insertTransaction(trx, {
          id: 'tx_000000000000000000000002',
          account_id: accountId,
          type: 'withdrawal',
          status: 'initiating',
          amount_cents: 100,
          fee_cents: 100,
          net_cents: 100,
          external_ref: 'plan-check',
          pix_payload: null,
          expires_at: null,
          paid_at: null,
          created_at: now,
          updated_at: now,
          end_to_end_id: null,
          payer: null,
          beneficiary: null,
          refund_end_to_end_id: null,
          refunded_cents: null,
          refused_code: null,
          refused_reason: null,
          customer: null,
          provider_ref: null,
          pix_key: '52998224725',
          pix_key_type: 'cpf',
          description: null,
          recipient_id: null,
          provider_state: 'sending',
        }));
      }),
    );
    await explain('webhook dispatch claim (batch 200)', () => inRollback((trx) => claimDueDeliveries(trx, 200, now, new Date(now.getTime() + 30_000))));
    await explain('webhook backlog (/metrics)', () => dueDeliveryBacklog(db, now));
    await explain('webhook attempts of the account (limit 50)', () => listAttempts(db, accountId, { limit: 50 }));
    await explain('reconciliation: stuck sends', () => listStuckSends(db, new Date(now.getTime() - 60_000), 100));
    await explain('reconciliation: open withdrawals due', () => listOpenWithdrawalsDue(db, now, 100));
    await explain('open withdrawal figures (/metrics)', () =>
      openWithdrawalFigures(db, { now, overdueBefore: new Date(now.getTime() - 3_600_000), stuckBefore: new Date(now.getTime() - 60_000) }),
    );
    await explain('charge expiry: due charges', () => inRollback((trx) => lockDueCharges(trx, now, 100)));
    await explain('back office: withdrawals of the account', () => listWithdrawals(db, { accountId, limit: 50 }));
    await explain('back office: all withdrawals (limit 50)', () => listWithdrawals(db, { limit: 50 }));
    await explain('events of the account (limit 50)', () => listAccountEvents(db, accountId, 50));
    await explain('events of one transaction', () => listTransactionEvents(db, accountId, transactionId));
    await explain('history purge (hourly)', () => inRollback((trx) => purgeDeliveriesBefore(trx, new Date(now.getTime() - 60 * 86_400_000))));
  } finally {
    await session.close();
  }
  return findings;
}

export function renderPlans(findings: PlanFinding[], verbose: boolean): string {
  const lines: string[] = [];
  for (const finding of findings) {
    const verdict = finding.scans.length ? `SCANS: ${finding.scans.join('; ')}` : 'ok';
    lines.push(`  ${finding.name.padEnd(60)} ${finding.executionMs.toFixed(2).padStart(9)} ms ${String(finding.buffers).padStart(7)} buffers  ${verdict}`);
    if (verbose || finding.scans.length) for (const line of finding.outline) lines.push(`      ${line}`);
  }
  return lines.join('\n');
}
