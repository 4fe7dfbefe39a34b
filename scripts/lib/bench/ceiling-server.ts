/**
 * The HTTP stack's ceiling: bare Express 5 routes at the merchant API's paths answering constant JSON,
 * with no authentication, validation or database. The POST routes parse the JSON body (express.json, as
 * any JSON API must) and answer 201. Started by the benchmark as a child process; prints
 * `listening on <url>` when ready and stops on SIGTERM/SIGINT.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';

const BALANCE = { available: 123_456, pending: 0, currency: 'BRL', updatedAt: 1_763_700_000_000 };
const TRANSACTION = {
  transactionId: 'tx_0123456789abcdef01234567',
  type: 'pix_in',
  amountCents: 1000,
  feeCents: 0,
  netCents: 1000,
  status: 'pending',
  externalRef: 'pedido-1',
  pixPayload: '00020101021226770014br.gov.bcb.pix2555pix.pixgate.com.br/qr/v2/0123456789abcdef012345675204000053039865802BR',
  expiresAt: 1_763_872_800,
  paidAt: null,
  createdAt: 1_763_700_000_000,
  updatedAt: 1_763_700_000_000,
};
const CHARGE_CREATED = {
  transactionId: TRANSACTION.transactionId,
  status: 'pending',
  pixPayload: TRANSACTION.pixPayload,
  expiresAt: TRANSACTION.expiresAt,
  amountCents: 1000,
};
const WITHDRAWAL_CREATED = {
  transactionId: 'tx_fedcba9876543210fedcba98',
  status: 'processing',
  amountCents: 100,
  feeCents: 100,
  totalDeducted: 200,
};

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/v1/balance', (_req, res) => {
  res.json(BALANCE);
});
app.get('/v1/transactions/:id', (_req, res) => {
  res.json(TRANSACTION);
});
app.post('/v1/pix', express.json({ limit: '64kb' }), (_req, res) => {
  res.status(201).json(CHARGE_CREATED);
});
app.post('/v1/withdraw', express.json({ limit: '64kb' }), (_req, res) => {
  res.status(201).json(WITHDRAWAL_CREATED);
});

const server = app.listen(Number(process.env['PORT'] ?? 0), process.env['HOST'] ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo;
  console.log(`ceiling listening on http://${address}:${port}`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
