/**
 * Bulk history written straight into the benchmark's database with generate_series, for the cases that
 * need an account with a past: 50,000 earlier withdrawals today (withdrawals at constant cost) and the
 * `--scale` account (1,000,000 transactions, 100,000 webhook deliveries).
 *
 * The withdrawal totals the caps read (migration 007) are set from the loaded rows in one statement, with
 * the row trigger off for the loading session (`session_replication_role = replica`, this session only):
 * through the trigger, 50,000 withdrawals of one day update the same two total rows 50,000 times in one
 * transaction, and each update walks the row's chain of versions (over a minute, quadratic). Each loader
 * then checks that every total equals the sum of the counted withdrawals it stands for.
 *
 * The 50,000 withdrawals of the constant-cost case are history the ledger never saw (no transfers: that
 * case measures the caps). The `--scale` account's transactions get their whole ledger history, as the
 * gateway would have written it (`preloadLedger`), so the ledger check runs over 1,000,000 transactions'
 * transfers and entries.
 */
import type pg from 'pg';
import { withClient } from '../postgres.ts';

/** Statuses migration 007 counts toward the caps. */
const COUNTED = `('initiating', 'processing', 'pending_approval', 'paid', 'failed_unknown', 'refunded', 'partially_refunded')`;
/** Today's date in São Paulo (UTC−3, no DST), as the trigger computes it. */
const SP_TODAY = `((now() AT TIME ZONE 'UTC') - interval '3 hours')::date`;
/**
 * Adds the account's counted withdrawals created at or after `since` to its day and month totals, as the
 * trigger would have one by one.
 */
const ADD_TOTALS = `
  INSERT INTO withdrawal_totals (account_id, period, period_start, total_cents)
  SELECT account_id, period, period_start, sum(amount_cents)
  FROM (
    SELECT account_id, amount_cents, 'day' AS period, ((created_at AT TIME ZONE 'UTC') - interval '3 hours')::date AS period_start
    FROM transactions WHERE account_id = $1 AND type = 'withdrawal' AND status IN ${COUNTED} AND provider_ref LIKE $2
    UNION ALL
    SELECT account_id, amount_cents, 'month', date_trunc('month', (created_at AT TIME ZONE 'UTC') - interval '3 hours')::date
    FROM transactions WHERE account_id = $1 AND type = 'withdrawal' AND status IN ${COUNTED} AND provider_ref LIKE $2
  ) counted
  GROUP BY account_id, period, period_start
  ON CONFLICT (account_id, period, period_start) DO UPDATE SET total_cents = withdrawal_totals.total_cents + excluded.total_cents`;

/** Runs `load` with the row triggers of this session off, then `ADD_TOTALS` for the rows whose provider_ref matches `refPattern`. */
async function withoutTriggers(client: pg.Client, accountId: string, refPattern: string, load: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL session_replication_role = replica');
    await load();
    await client.query('SET LOCAL session_replication_role = origin');
    await client.query(ADD_TOTALS, [accountId, refPattern]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** The instant today began in São Paulo. */
const SP_DAY_START = `((${SP_TODAY} + interval '3 hours') AT TIME ZONE 'UTC')`;

const PAYER = `json_build_object('name', 'Pagador Exemplo', 'document', '52998224725', 'documentType', 'cpf',
  'bankAccount', json_build_object('ispb', '00000000', 'branch', '0001', 'account', '123456'))::jsonb`;
const CUSTOMER = `json_build_object('name', 'Maria da Silva', 'email', 'maria@example.com', 'phone', '11987654321',
  'document', json_build_object('number', '52998224725', 'type', 'cpf'))::jsonb`;
const BENEFICIARY = `json_build_object('name', 'Benchmark Ltda', 'document', '52998224725', 'documentType', 'cpf',
  'bankAccount', json_build_object('ispb', '00000000', 'branch', '0001', 'account', '654321'))::jsonb`;

export interface TotalsCheck {
  /** What withdrawal_totals holds for the account's São Paulo day (and month). */
  dayTotalCents: number;
  monthTotalCents: number;
  /** The same sums computed from the counted withdrawal rows. */
  dayRowsCents: number;
  monthRowsCents: number;
}

/** Compares the account's day and month totals with the sums of its counted withdrawals; throws on drift. */
async function checkTotals(client: pg.Client, accountId: string): Promise<TotalsCheck> {
  const result = await client.query<{ day_total: string; month_total: string; day_rows: string; month_rows: string }>(
    `WITH local AS (
       SELECT amount_cents, ((created_at AT TIME ZONE 'UTC') - interval '3 hours') AS at
       FROM transactions WHERE account_id = $1 AND type = 'withdrawal' AND status IN ${COUNTED}
     )
     SELECT
       coalesce((SELECT total_cents FROM withdrawal_totals WHERE account_id = $1 AND period = 'day' AND period_start = ${SP_TODAY}), 0) AS day_total,
       coalesce((SELECT total_cents FROM withdrawal_totals WHERE account_id = $1 AND period = 'month'
         AND period_start = date_trunc('month', ${SP_TODAY})::date), 0) AS month_total,
       coalesce((SELECT sum(amount_cents) FROM local WHERE at::date = ${SP_TODAY}), 0) AS day_rows,
       coalesce((SELECT sum(amount_cents) FROM local WHERE date_trunc('month', at) = date_trunc('month', ${SP_TODAY})), 0) AS month_rows`,
    [accountId],
  );
  const row = result.rows[0]!;
  const check = {
    dayTotalCents: Number(row.day_total),
    monthTotalCents: Number(row.month_total),
    dayRowsCents: Number(row.day_rows),
    monthRowsCents: Number(row.month_rows),
  };
  if (check.dayTotalCents !== check.dayRowsCents || check.monthTotalCents !== check.monthRowsCents) {
    throw new Error(`withdrawal_totals disagree with the preloaded withdrawals of ${accountId}: ${JSON.stringify(check)}`);
  }
  return check;
}

/**
 * `count` paid withdrawals of R$ 1,00 (fee R$ 1,00) earlier today on the account, spread over the last hour
 * (or since São Paulo's midnight when that is sooner), inserted in one statement: the trigger adds each to
 * the day's and the month's totals. Returns the totals check.
 */
export async function preloadWithdrawalsToday(databaseUrl: string, accountId: string, count: number): Promise<TotalsCheck & { seconds: number }> {
  return withClient(databaseUrl, async (client) => {
    const started = performance.now();
    await withoutTriggers(client, accountId, 'pre-%', async () => {
      await client.query(
      `INSERT INTO transactions (id, account_id, type, status, amount_cents, fee_cents, net_cents, created_at, updated_at,
         paid_at, pix_key, pix_key_type, provider_ref, provider_state, total_deducted_cents, end_to_end_id, beneficiary)
       SELECT 'tx_' || substr(md5($1 || ':pre:' || g), 1, 24), $1, 'withdrawal', 'paid', 100, 100, 200, at, at,
         at, '52998224725', 'cpf', 'pre-' || g, 'sent', 200, 'E00000000' || lpad(g::text, 23, '0'), ${BENEFICIARY}
       FROM generate_series(1, $2::int) g,
         LATERAL (SELECT now() - (g::float8 / $2::int) * least(now() - ${SP_DAY_START}, interval '1 hour') AS at) t`,
        [accountId, count],
      );
    });
    await client.query('ANALYZE transactions');
    const check = await checkTotals(client, accountId);
    return { ...check, seconds: Math.round((performance.now() - started) / 100) / 10 };
  });
}

/**
 * The ledger history of the account's preloaded transactions (provider_ref LIKE `refPattern`), as the
 * gateway writes it (docs/decisions.md "The double-entry ledger"): each paid charge's transfer
 * psp_settlement → available + fee_revenue, a refunded one's return, each withdrawal's pending transfer and
 * its post (paid) or void (failed). Entries get consecutive versions and running balances-after per account,
 * in the order of the transactions, after what each account already holds; the balances move once at the end.
 */
async function preloadLedger(client: pg.Client, accountId: string, refPattern: string): Promise<{ transfers: number; entries: number }> {
  await client.query('BEGIN');
  try {
    await client.query(
      `CREATE TEMP TABLE preload_steps ON COMMIT DROP AS
       SELECT t.id AS tx, t.type, t.amount_cents AS a, t.fee_cents AS f, row_number() OVER (ORDER BY t.created_at, t.id) AS n, s.step, s.reason,
         s.reason = 'withdrawal_reserved' AS pending, CASE WHEN s.step = 1 THEN t.created_at ELSE coalesce(t.paid_at, t.updated_at) END AS at
       FROM transactions t
       CROSS JOIN LATERAL (VALUES
         (1, CASE WHEN t.type = 'withdrawal' THEN 'withdrawal_reserved' WHEN t.status IN ('paid', 'refunded') THEN 'charge_paid' END),
         (2, CASE WHEN t.type = 'withdrawal' THEN (CASE WHEN t.status = 'paid' THEN 'withdrawal_posted' ELSE 'withdrawal_voided' END)
                  WHEN t.status = 'refunded' THEN 'charge_refunded' END)
       ) AS s(step, reason)
       WHERE t.account_id = $1 AND t.provider_ref LIKE $2 AND s.reason IS NOT NULL`,
      [accountId, refPattern],
    );
    const first = await client.query(
      `INSERT INTO ledger_transfers (reason, transaction_id, pending, created_at)
       SELECT reason, tx, pending, at FROM preload_steps WHERE reason NOT IN ('withdrawal_posted', 'withdrawal_voided') ORDER BY n, step`,
    );
    const second = await client.query(
      `INSERT INTO ledger_transfers (reason, transaction_id, pending, pending_id, created_at)
       SELECT s.reason, s.tx, false, p.id, s.at FROM preload_steps s
       JOIN ledger_transfers p ON p.transaction_id = s.tx AND p.pending
       WHERE s.reason IN ('withdrawal_posted', 'withdrawal_voided') ORDER BY s.n`,
    );
    await client.query(
      `CREATE TEMP TABLE preload_legs ON COMMIT DROP AS
       SELECT lt.id AS transfer_id, s.n, s.step, s.at, leg.account, leg.amount
       FROM preload_steps s
       JOIN ledger_transfers lt ON lt.transaction_id = s.tx AND lt.reason = s.reason
       CROSS JOIN LATERAL (VALUES
         ($1 || ':available', CASE s.reason WHEN 'charge_paid' THEN s.a - s.f WHEN 'charge_refunded' THEN -s.a
           WHEN 'withdrawal_reserved' THEN -(s.a + s.f) WHEN 'withdrawal_voided' THEN s.a + s.f ELSE 0 END),
         ($1 || ':pending_out', CASE s.reason WHEN 'withdrawal_reserved' THEN s.a + s.f
           WHEN 'withdrawal_posted' THEN -(s.a + s.f) WHEN 'withdrawal_voided' THEN -(s.a + s.f) ELSE 0 END),
         ('system:psp_settlement', CASE s.reason WHEN 'charge_paid' THEN -s.a WHEN 'charge_refunded' THEN s.a
           WHEN 'withdrawal_posted' THEN s.a ELSE 0 END),
         ('system:fee_revenue', CASE s.reason WHEN 'charge_paid' THEN s.f WHEN 'withdrawal_posted' THEN s.f ELSE 0 END)
       ) AS leg(account, amount)
       WHERE leg.amount <> 0`,
      [accountId],
    );
    const entries = await client.query(
      `INSERT INTO ledger_entries (transfer_id, account_id, amount_cents, balance_after_cents, account_version, created_at)
       SELECT l.transfer_id, l.account, l.amount,
         acc.balance_cents + sum(l.amount) OVER w, acc.version + row_number() OVER w, l.at
       FROM preload_legs l JOIN ledger_accounts acc ON acc.id = l.account
       WINDOW w AS (PARTITION BY l.account ORDER BY l.n, l.step ROWS UNBOUNDED PRECEDING)`,
    );
    await client.query(
      `UPDATE ledger_accounts acc SET balance_cents = acc.balance_cents + m.total, version = acc.version + m.entries
       FROM (SELECT account, sum(amount) AS total, count(*) AS entries FROM preload_legs GROUP BY account) m
       WHERE acc.id = m.account`,
    );
    await client.query('COMMIT');
    return { transfers: (first.rowCount ?? 0) + (second.rowCount ?? 0), entries: entries.rowCount ?? 0 };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

export interface ScaleLoad {
  transactions: number;
  withdrawals: number;
  idempotencyKeys: number;
  deliveries: number;
  attempts: number;
  seconds: number;
  totals: TotalsCheck;
  /** A loaded charge of the account, for the single read. */
  sampleTransactionId: string;
}

/**
 * The `--scale` account's history: `transactions` rows over the last 58 days, one in ten a withdrawal
 * (paid, or failed), the others charges (paid, expired or refunded) with their externalRefs' idempotency
 * keys for the last 7 days; and `deliveries` webhook deliveries to the account's webhook URL `endpointId`
 * (one outbox event per paid charge, each delivery with one attempt in the history: most succeeded, some
 * failed, one in a hundred still pending with its retry scheduled later). Then VACUUM ANALYZE, as
 * autovacuum would have done on a database that grew this way.
 */
export async function preloadScale(
  databaseUrl: string,
  accountId: string,
  endpointId: string,
  sizes: { transactions: number; deliveries: number },
  log: (line: string) => void,
): Promise<ScaleLoad> {
  return withClient(databaseUrl, async (client) => {
    const started = performance.now();
    const step = async (what: string, text: string, values: unknown[]) => {
      const at = performance.now();
      const result = await client.query(text, values);
      log(`    ${what}: ${result.rowCount ?? 0} rows in ${((performance.now() - at) / 1000).toFixed(1)} s`);
      return result.rowCount ?? 0;
    };
    // g = 1 is the oldest; one row every 5 s back from now (1,000,000 rows: about 58 days).
    let transactions = 0;
    await withoutTriggers(client, accountId, 'scale-%', async () => {
      transactions = await step(
      'transactions',
      `INSERT INTO transactions (id, account_id, type, status, amount_cents, fee_cents, net_cents, external_ref, pix_payload,
         expires_at, paid_at, created_at, updated_at, end_to_end_id, payer, beneficiary, refund_end_to_end_id, refunded_cents,
         customer, provider_ref, pix_key, pix_key_type, provider_state, total_deducted_cents, refused_code, refused_reason)
       SELECT id, $1, kind, status, amount, fee, CASE WHEN kind = 'withdrawal' THEN amount + fee ELSE amount - fee END, ref, payload,
         CASE WHEN kind = 'pix_in' THEN at + interval '1 hour' END, paid, at, coalesce(paid, at) + interval '1 second',
         CASE WHEN paid IS NOT NULL THEN 'E00000000' || lpad(g::text, 23, '0') END,
         CASE WHEN kind = 'pix_in' AND paid IS NOT NULL THEN ${PAYER} END,
         CASE WHEN kind = 'withdrawal' AND paid IS NOT NULL THEN ${BENEFICIARY} END,
         CASE WHEN status = 'refunded' THEN 'D00000000' || lpad(g::text, 23, '0') END,
         CASE WHEN status = 'refunded' THEN amount END,
         CASE WHEN kind = 'pix_in' THEN ${CUSTOMER} END,
         'scale-' || g,
         CASE WHEN kind = 'withdrawal' THEN '52998224725' END,
         CASE WHEN kind = 'withdrawal' THEN 'cpf' END,
         CASE WHEN kind = 'withdrawal' THEN 'sent' END,
         CASE WHEN kind = 'withdrawal' THEN amount + fee END,
         CASE WHEN status = 'failed' THEN 'AC03' END,
         CASE WHEN status = 'failed' THEN 'Conta de destino inválida.' END
       FROM (
         SELECT g, 'tx_' || substr(md5($1 || ':scale:' || g), 1, 24) AS id,
           CASE WHEN g % 10 = 0 THEN 'withdrawal' ELSE 'pix_in' END AS kind,
           CASE WHEN g % 10 = 0 THEN (CASE WHEN g % 100 = 0 THEN 'failed' ELSE 'paid' END)
                WHEN g % 10 IN (7, 8) THEN 'expired' WHEN g % 50 = 1 THEN 'refunded' ELSE 'paid' END AS status,
           100 + (g % 9900) AS amount, CASE WHEN g % 10 = 0 THEN 100 ELSE 0 END AS fee,
           CASE WHEN g % 10 <> 0 THEN 'scale-ref-' || g END AS ref,
           CASE WHEN g % 10 <> 0 THEN '00020101021226770014br.gov.bcb.pix2555pix.pixgate.com.br/qr/v2/' || md5(g::text) || '5204000053039865802BR' END AS payload,
           now() - ($2::int - g) * interval '5 seconds' AS at
         FROM generate_series(1, $2::int) g
       ) base,
       LATERAL (SELECT CASE WHEN base.status IN ('paid', 'refunded') THEN base.at + interval '30 seconds' END AS paid) p`,
        [accountId, sizes.transactions],
      );
    });
    const ledgerAt = performance.now();
    const ledger = await preloadLedger(client, accountId, 'scale-%');
    log(`    ledger history: ${ledger.transfers} transfers, ${ledger.entries} entries in ${((performance.now() - ledgerAt) / 1000).toFixed(1)} s`);
    const idempotencyKeys = await step(
      'idempotency keys (charges of the last 7 days)',
      `INSERT INTO idempotency_keys (account_id, scope, external_ref, transaction_id, expires_at)
       SELECT account_id, 'charge', external_ref, id, created_at + interval '7 days'
       FROM transactions WHERE account_id = $1 AND type = 'pix_in' AND provider_ref LIKE 'scale-%' AND external_ref IS NOT NULL
         AND created_at > now() - interval '7 days'`,
      [accountId],
    );
    // The newest paid charges get an event each, and each event one delivery to the account's URL.
    await step(
      'outbox events',
      `INSERT INTO outbox_events (id, account_id, event, transaction_id, payload, created_at, fanned_out)
       SELECT 'evt_' || substr(md5(t.id), 1, 24), $1, 'transaction.paid', t.id,
         json_build_object('id', 'evt_' || substr(md5(t.id), 1, 24), 'event', 'transaction.paid',
           'occurredAt', (extract(epoch FROM t.paid_at) * 1000)::bigint,
           'data', json_build_object('transactionId', t.id, 'type', 'pix_in', 'amountCents', t.amount_cents, 'status', 'paid')),
         t.paid_at, true
       FROM (SELECT id, amount_cents, paid_at FROM transactions WHERE account_id = $1 AND type = 'pix_in' AND status = 'paid' AND provider_ref LIKE 'scale-%'
             ORDER BY created_at DESC LIMIT $2::int) t`,
      [accountId, sizes.deliveries],
    );
    const deliveries = await step(
      'webhook deliveries',
      `INSERT INTO webhook_deliveries (id, account_id, event_id, endpoint_id, trigger, status, attempts, next_attempt_at,
         locked_until, created_at, updated_at)
       SELECT 'dlv_' || substr(md5(e.id), 1, 24), $1, e.id, $2, 'automatic', s.status, 1,
         CASE WHEN s.status = 'pending' THEN now() + interval '1 day' ELSE e.created_at END, NULL, e.created_at, e.created_at + interval '1 second'
       FROM (SELECT id, created_at, row_number() OVER (ORDER BY id) AS n FROM outbox_events
             WHERE account_id = $1 AND id = 'evt_' || substr(md5(transaction_id), 1, 24)) e,
         LATERAL (SELECT CASE WHEN e.n % 100 = 0 THEN 'pending' WHEN e.n % 25 = 0 THEN 'failed' ELSE 'succeeded' END AS status) s`,
      [accountId, endpointId],
    );
    const attempts = await step(
      'webhook attempts (history)',
      `INSERT INTO webhook_attempts (delivery_id, account_id, event_id, event, endpoint_id, url, attempt_number, trigger,
         request_body, http_status, duration_ms, response_excerpt, error, created_at)
       SELECT d.id, d.account_id, d.event_id, 'transaction.paid', d.endpoint_id, w.url, 1, 'automatic', e.payload::text,
         CASE WHEN d.status = 'succeeded' THEN 200 ELSE 500 END, 12, 'ok', NULL, d.created_at
       FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE d.account_id = $1 AND e.id = 'evt_' || substr(md5(e.transaction_id), 1, 24)`,
      [accountId],
    );
    const analyzeAt = performance.now();
    for (const table of ['transactions', 'idempotency_keys', 'outbox_events', 'webhook_deliveries', 'webhook_attempts', 'withdrawal_totals', 'ledger_transfers', 'ledger_entries', 'ledger_accounts']) {
      await client.query(`VACUUM ANALYZE ${table}`);
    }
    log(`    VACUUM ANALYZE: ${((performance.now() - analyzeAt) / 1000).toFixed(1)} s`);
    const totals = await checkTotals(client, accountId);
    const withdrawals = await client.query<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE account_id = $1 AND type = 'withdrawal'`, [accountId]);
    const sample = await client.query<{ id: string }>(
      `SELECT id FROM transactions WHERE account_id = $1 AND type = 'pix_in' AND status = 'paid' ORDER BY created_at LIMIT 1 OFFSET $2`,
      [accountId, Math.floor(sizes.transactions / 4)],
    );
    return {
      transactions,
      withdrawals: Number(withdrawals.rows[0]?.n ?? 0),
      idempotencyKeys,
      deliveries,
      attempts,
      seconds: Math.round((performance.now() - started) / 1000),
      totals,
      sampleTransactionId: sample.rows[0]!.id,
    };
  });
}
