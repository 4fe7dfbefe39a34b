/**
 * The floors under the gateway's database work: bare Express 5 plus ONE prepared statement per request
 * through a pg pool of 10 (the gateway's pool size), with no authentication, validation or query builder.
 *
 * - Reads (GET /v1/balance, GET /v1/transactions/{id}): one SELECT by primary key.
 * - The write floor (POST /v1/pix): the minimal durable write of a charge, one INSERT … RETURNING that
 *   claims the externalRef in `idempotency_keys` and stores the transaction row in the same statement
 *   (the shape of the gateway's own insert, committed on its own), with the body parsed as JSON.
 *
 * What separates the gateway from this server is the gateway's own work; what separates this server from
 * the bare-Express ceiling is the database round trip every fresh read or write must pay.
 * Environment: DATABASE_URL, ACCOUNT_ID (balance row, owner of the charges); prints `listening on <url>`.
 */
import express from 'express';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 10 });
const accountId = process.env['ACCOUNT_ID'] ?? '';
const app = express();
app.disable('x-powered-by');
app.set('etag', false);

const READ_BALANCE = "SELECT balance_cents FROM ledger_accounts WHERE id = $1 || ':available'";
const READ_TRANSACTION = 'SELECT * FROM transactions WHERE account_id = $1 AND id = $2';
/** The gateway's charge insert (transaction.repository.ts insertChargeClaimingKey) without its service around it. */
const INSERT_CHARGE = `
  WITH claim AS (
    INSERT INTO idempotency_keys (account_id, scope, external_ref, transaction_id, expires_at)
    VALUES ($2, 'charge', $6, $1, $13)
    ON CONFLICT (account_id, scope, external_ref) DO NOTHING
    RETURNING transaction_id
  )
  INSERT INTO transactions (id, account_id, type, status, amount_cents, fee_cents, net_cents, external_ref,
    pix_payload, expires_at, created_at, updated_at, customer, provider_ref)
  SELECT $1, $2, 'pix_in', 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM claim
  RETURNING id, status, amount_cents, pix_payload, expires_at`;

app.get('/v1/balance', async (_req, res) => {
  const result = await pool.query<{ balance_cents: string }>({ name: 'floor-balance', text: READ_BALANCE, values: [accountId] });
  res.json({ available: Number(result.rows[0]?.balance_cents ?? 0), pending: 0, currency: 'BRL', updatedAt: Date.now() });
});
app.get('/v1/transactions/:id', async (req, res) => {
  const result = await pool.query({ name: 'floor-transaction', text: READ_TRANSACTION, values: [accountId, req.params.id] });
  const row = result.rows[0] as Record<string, unknown> | undefined;
  if (!row) {
    res.status(404).json({ error: 'Transação não encontrada.' });
    return;
  }
  res.json({ transactionId: row['id'], type: row['type'], status: row['status'], amountCents: Number(row['amount_cents']) });
});
app.post('/v1/pix', express.json({ limit: '64kb' }), async (req, res) => {
  const body = req.body as { amountCents: number; externalRef: string; customer: unknown };
  const id = `tx_${randomBytes(12).toString('hex')}`;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 3_600_000);
  const payload = `00020101021226770014br.gov.bcb.pix2555pix.pixgate.com.br/qr/v2/${id.slice(3)}5204000053039865802BR`;
  const result = await pool.query<{ id: string; status: string; amount_cents: string; pix_payload: string; expires_at: Date }>({
    name: 'floor-charge',
    text: INSERT_CHARGE,
    values: [id, accountId, body.amountCents, 0, body.amountCents, body.externalRef, payload, expiresAt, now, now, JSON.stringify(body.customer), id, new Date(now.getTime() + 7 * 86_400_000)],
  });
  const row = result.rows[0];
  if (!row) {
    res.status(409).json({ error: 'externalRef já usado.' });
    return;
  }
  res.status(201).json({
    transactionId: row.id,
    status: row.status,
    pixPayload: row.pix_payload,
    expiresAt: Math.floor(row.expires_at.getTime() / 1000),
    amountCents: Number(row.amount_cents),
  });
});

const server = app.listen(Number(process.env['PORT'] ?? 0), process.env['HOST'] ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo;
  console.log(`db floor listening on http://${address}:${port}`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => void pool.end().then(() => process.exit(0)));
  });
}
