/**
 * The floor under a database-backed read: bare Express 5 plus one parameterized SELECT by primary key
 * through a pg pool of 10 (the gateway's pool size), with no authentication, validation or query builder.
 * What separates the gateway from this server is the gateway's own work; what separates this server from
 * the bare-Express ceiling is the database round trip every fresh read must pay.
 * Environment: DATABASE_URL, ACCOUNT_ID (balance row), TRANSACTION_ID; prints `listening on <url>`.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 10 });
const accountId = process.env['ACCOUNT_ID'] ?? '';
const app = express();
app.disable('x-powered-by');
app.set('etag', false);

app.get('/v1/balance', async (_req, res) => {
  const result = await pool.query<{ available_cents: string }>('SELECT available_cents FROM balances WHERE account_id = $1', [accountId]);
  res.json({ available: Number(result.rows[0]?.available_cents ?? 0), pending: 0, currency: 'BRL', updatedAt: Date.now() });
});
app.get('/v1/transactions/:id', async (req, res) => {
  const result = await pool.query('SELECT * FROM transactions WHERE account_id = $1 AND id = $2', [accountId, req.params.id]);
  const row = result.rows[0] as Record<string, unknown> | undefined;
  if (!row) {
    res.status(404).json({ error: 'Transação não encontrada.' });
    return;
  }
  res.json({ transactionId: row['id'], type: row['type'], status: row['status'], amountCents: Number(row['amount_cents']) });
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
