/**
 * A merchant's integration in plain JavaScript (Node 22 or later, no TypeScript, no build step), with the
 * integration kit as a merchant's project installs it (`npm install pixgate-<version>.tgz`, packed by
 * `npm run pack:kit`):
 *
 *   1. a webhook receiver (a local HTTP server) that verifies each delivery with `pixgate/webhooks`;
 *   2. a charge (POST /v1/pix), and a refund refused before the charge is paid (a PixGateError);
 *   3. the payer pays (sandbox); the `transaction.paid` webhook arrives;
 *   4. part of the charge goes back to the payer (POST /v1/transactions/{id}/refunds), and the same request
 *      again is answered as the idempotent replay;
 *   5. the payer's bank confirms the refund (sandbox); the `transaction.partially_refunded` webhook arrives;
 *   6. the charge read back (GET /v1/transactions/{id}) with its refund, and the statement
 *      (GET /v1/balance/entries);
 *   7. a delivery whose body was changed is refused;
 *   8. a charge with a due date (POST /v1/due-charges, with a fine and interest), postponed (PATCH), paid
 *      (sandbox: the amount due that day), its `transaction.paid` webhook and its amount paid read back;
 *   9. a static QR code of a fixed amount (POST /v1/static-qrcodes), paid by a payer (sandbox), the payment's
 *      `transaction.paid` webhook, the code read back with its totals and its payments listed
 *      (GET /v1/transactions?staticQrCodeId=…), then deactivated;
 *  10. a reusable payment link (POST /v1/payment-links), opened by a payer (its page makes a charge), that
 *      charge paid (sandbox), the link read back with its payments, then deactivated.
 *
 * Environment: PIXGATE_URL (default http://127.0.0.1:3000), PIXGATE_API_KEY (required). The sandbox steps
 * that are not merchant calls (registering this receiver's URL, paying the charge, confirming the refund)
 * use the back office: PIXGATE_ADMIN_URL (default http://127.0.0.1:3001) and ADMIN_TOKEN (default: the
 * file `.data/admin-token` that `npm start` writes). Inside this repository, `node examples/merchant.mjs`
 * runs it against the sources (Node 24 strips their types); test/sdk/kit.test.ts runs it in a fresh
 * plain-JavaScript project against the packed kit and a real gateway. examples/merchant.ts is the same
 * integration in TypeScript.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createClient, PixGateError } from 'pixgate/client';
import { verifyWebhook, WebhookVerificationError } from 'pixgate/webhooks';

const WAIT_MS = 60_000;

const apiKey = process.env.PIXGATE_API_KEY ?? '';
if (apiKey === '') {
  console.error('Set PIXGATE_API_KEY to an API key of the account (npm start prints the demo key).');
  process.exit(2);
}
const pixgate = createClient({ baseUrl: process.env.PIXGATE_URL || 'http://127.0.0.1:3000', apiKey });

// The back office, for the sandbox steps only (a merchant never has it).
const adminUrl = (process.env.PIXGATE_ADMIN_URL || 'http://127.0.0.1:3001').replace(/\/+$/, '');
const adminToken = process.env.ADMIN_TOKEN?.trim() || readFileSync('.data/admin-token', 'utf8').trim();
async function backOffice(method, path, body) {
  const response = await fetch(`${adminUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}
async function sandbox(method, path, body) {
  const answer = await backOffice(method, path, body);
  if (answer.status >= 300) throw new Error(`back office ${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}
async function accountOf(key) {
  const prefix = key.slice(0, 16);
  const { accounts } = await sandbox('GET', '/admin/v1/accounts');
  for (const { accountId } of accounts) {
    const { apiKeys } = await sandbox('GET', `/admin/v1/accounts/${accountId}/api-keys`);
    if (apiKeys.some((k) => k.publicPrefix === prefix && k.revokedAt === null)) return accountId;
  }
  throw new Error(`No account has an active API key starting with ${prefix}`);
}

// 1. The webhook receiver: verify the raw body, answer 400 to anything unverified, 200 quickly otherwise.
let secret = '';
const received = [];
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks);
    try {
      const event = verifyWebhook(rawBody, req.headers, secret);
      // Deliveries can repeat (retries, resends): deduplicate on eventId.
      if (!received.some((seen) => seen.event.eventId === event.eventId)) {
        received.push({ event, rawBody, headers: req.headers });
        const about =
          event.event === 'webhook.test'
            ? 'test delivery'
            : event.category === 'recurring'
              ? `recurrence ${event.recurrenceId}` // Pix Automático (since 2026-11-30): no transaction fields
              : `${event.transactionId} status=${event.status}`;
        console.log(`  ← webhook ${event.event} ${about} (signature verified)`);
      }
      res.writeHead(200).end();
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      console.log(`  ← webhook REJECTED: ${error.message}`);
      res.writeHead(400).end();
    }
  });
});

async function waitFor(probe, what) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main() {
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${receiver.address().port}/webhooks/pixgate`;
  const accountId = await accountOf(apiKey);
  const endpoint = await sandbox('POST', `/admin/v1/accounts/${accountId}/webhooks`, { url: receiverUrl, description: 'examples/merchant.mjs' });
  secret = endpoint.secret;
  console.log(`Webhook receiver on ${receiverUrl} (registered for account ${accountId})`);
  try {
    console.log('\n1. A charge of R$ 10,00 (POST /v1/pix)');
    const customer = { name: 'Maria da Silva', email: 'maria@example.com', phone: '11987654321', document: { number: '52998224725', type: 'cpf' } };
    const { data: charge, response } = await pixgate.POST('/v1/pix', { body: { amountCents: 1000, externalRef: `pedido-${randomUUID()}`, customer } });
    console.log(`  → ${response.status} ${charge.transactionId} status=${charge.status}`);
    const id = charge.transactionId;

    console.log('\n2. A refund before the payment is refused: a PixGateError');
    try {
      await pixgate.POST('/v1/transactions/{id}/refunds', { params: { path: { id } }, body: {} });
      throw new Error('a refund of an unpaid charge was accepted');
    } catch (error) {
      if (!(error instanceof PixGateError)) throw error;
      console.log(`  → PixGateError ${error.status} ${error.operation}: ${error.message}`);
    }

    console.log('\n3. The payer pays (sandbox); the webhook arrives');
    await sandbox('POST', `/admin/v1/sandbox/charges/${id}/pay`, {});
    const paid = await waitFor(() => received.find(({ event }) => event.event === 'transaction.paid' && event.transactionId === id), 'transaction.paid webhook');
    console.log(`  transaction.paid: netCents=${paid.event.netCents}`);

    console.log('\n4. R$ 4,00 back to the payer (POST /v1/transactions/{id}/refunds)');
    const request = { params: { path: { id } }, body: { amountCents: 400, externalRef: `devolucao-${randomUUID()}`, description: 'Item devolvido' } };
    const { data: refund, response: created } = await pixgate.POST('/v1/transactions/{id}/refunds', request);
    console.log(`  → ${created.status} ${refund.refundId} status=${refund.status} amountCents=${refund.amountCents}`);
    const { data: replay, response: again } = await pixgate.POST('/v1/transactions/{id}/refunds', request);
    console.log(`  the same request again → ${again.status} ${replay.refundId} idempotent=${replay.idempotent}`);

    console.log("\n5. The payer's bank confirms the refund (sandbox); the webhook arrives");
    // The simulated PSP also confirms by itself after a few seconds (SIM_SETTLE_AFTER_MS): 409 then.
    const settled = await backOffice('POST', `/admin/v1/sandbox/refunds/${refund.refundId}/settle`);
    if (settled.status !== 200 && settled.status !== 409) throw new Error(`settling the refund answered ${settled.status}: ${JSON.stringify(settled.body)}`);
    const refunded = await waitFor(
      () => received.find(({ event }) => event.event === 'transaction.partially_refunded' && event.transactionId === id),
      'transaction.partially_refunded webhook',
    );
    console.log(`  transaction.partially_refunded: refundId=${refunded.event.refundId} refundedCents=${refunded.event.refundedCents} refundEndToEndId=${refunded.event.refundEndToEndId}`);

    console.log('\n6. The charge read back, and the statement');
    const { data: transaction } = await pixgate.GET('/v1/transactions/{id}', { params: { path: { id } } });
    const [only] = transaction.refunds ?? [];
    console.log(`  → ${transaction.transactionId} status=${transaction.status} refundedCents=${transaction.refundedCents} refund ${only?.refundId} status=${only?.status}`);
    const { data: statement } = await pixgate.GET('/v1/balance/entries', { params: { query: { limit: 10 } } });
    for (const entry of statement.entries) console.log(`  statement: ${entry.type} ${entry.amountCents} → ${entry.balanceAfterCents} (${entry.transactionId ?? '-'})`);

    console.log('\n7. A delivery whose body was changed is refused');
    try {
      verifyWebhook(paid.rawBody.toString('utf8').replace(`"netCents":${paid.event.netCents}`, '"netCents":99000'), paid.headers, secret);
      throw new Error('a changed body was accepted');
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      console.log(`  → WebhookVerificationError: ${error.message}`);
    }

    console.log('\n8. A charge with a due date (POST /v1/due-charges), postponed (PATCH), paid (sandbox)');
    // São Paulo's today (UTC−3), plus days: the due date is a calendar day there.
    const dayIn = (days) => new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
    const { data: due, response: dueCreated } = await pixgate.POST('/v1/due-charges', {
      body: {
        amountCents: 5000,
        dueDate: dayIn(10),
        externalRef: `mensalidade-${randomUUID()}`,
        description: 'Mensalidade',
        customer: { name: 'Maria da Silva', document: { number: '52998224725', type: 'cpf' } },
        fine: { mode: 'percent', basisPoints: 200 },
        interest: { mode: 'percent_per_month_calendar_days', basisPoints: 100 },
      },
    });
    console.log(`  → ${dueCreated.status} ${due.transactionId} status=${due.status} dueDate=${due.dueDate} amountDue=${due.amountDue.amountCents}`);
    const { data: postponed } = await pixgate.PATCH('/v1/due-charges/{id}', { params: { path: { id: due.transactionId } }, body: { dueDate: dayIn(20) } });
    console.log(`  postponed → dueDate=${postponed.dueDate} revision=${postponed.revision}`);
    await sandbox('POST', `/admin/v1/sandbox/charges/${due.transactionId}/pay`, {});
    await waitFor(() => received.find(({ event }) => event.event === 'transaction.paid' && event.transactionId === due.transactionId), 'transaction.paid webhook of the due charge');
    const { data: dueRead } = await pixgate.GET('/v1/due-charges/{id}', { params: { path: { id: due.transactionId } } });
    console.log(`  transaction.paid: ${dueRead.transactionId} status=${dueRead.status} paidAmountCents=${dueRead.paidAmountCents}`);

    console.log('\n9. A static QR code of R$ 15,00 (POST /v1/static-qrcodes), paid (sandbox), read back, deactivated');
    const { data: code, response: codeCreated } = await pixgate.POST('/v1/static-qrcodes', {
      body: { amountCents: 1500, description: 'Caixa 1', externalRef: `caixa-${randomUUID()}` },
    });
    console.log(`  → ${codeCreated.status} ${code.staticQrCodeId} status=${code.status} amountCents=${code.amountCents} pixPayload=${code.pixPayload.slice(0, 32)}…`);
    // A payer's bank app reads the BR Code and sends the Pix: every Pix to the code is a paid charge of its own.
    const scanned = await sandbox('POST', `/admin/v1/sandbox/static-qrcodes/${code.staticQrCodeId}/pay`, {});
    if (scanned.outcome !== 'credited') throw new Error(`the static QR code's Pix was ${scanned.outcome} (${scanned.reason})`);
    const codePaymentId = scanned.payment.transactionId;
    await waitFor(() => received.find(({ event }) => event.event === 'transaction.paid' && event.transactionId === codePaymentId), 'transaction.paid webhook of the static QR code');
    const { data: codeRead } = await pixgate.GET('/v1/static-qrcodes/{id}', { params: { path: { id: code.staticQrCodeId } } });
    console.log(`  read back → paymentsCount=${codeRead.paymentsCount} receivedCents=${codeRead.receivedCents}`);
    const { data: codePayments } = await pixgate.GET('/v1/transactions', { params: { query: { staticQrCodeId: code.staticQrCodeId } } });
    for (const payment of codePayments.transactions) console.log(`  payment: ${payment.transactionId} status=${payment.status} amountCents=${payment.amountCents} staticQrCodeId=${payment.staticQrCodeId}`);
    const { data: codeOff } = await pixgate.POST('/v1/static-qrcodes/{id}/deactivate', { params: { path: { id: code.staticQrCodeId } } });
    console.log(`  deactivated → ${codeOff.staticQrCodeId} status=${codeOff.status}`);

    console.log('\n10. A reusable payment link of R$ 49,90 (POST /v1/payment-links), opened and paid, read back, deactivated');
    const { data: link, response: linkCreated } = await pixgate.POST('/v1/payment-links', {
      body: { amountCents: 4990, description: 'Camiseta azul, tamanho M', reusable: true, externalRef: `link-${randomUUID()}` },
    });
    console.log(`  → ${linkCreated.status} ${link.linkId} status=${link.status} url=${link.url}`);
    // The payer opens the page (no API key): it makes a charge for them and shows its QR code.
    const page = await fetch(link.url);
    if (page.status !== 200) throw new Error(`the link's page answered ${page.status}`);
    const { data: opened } = await pixgate.GET('/v1/payment-links/{linkId}', { params: { path: { linkId: link.linkId } } });
    const linkChargeId = opened.payments?.[0]?.transactionId ?? '';
    console.log(`  the page made the charge ${linkChargeId}`);
    await sandbox('POST', `/admin/v1/sandbox/charges/${linkChargeId}/pay`, {});
    await waitFor(() => received.find(({ event }) => event.event === 'transaction.paid' && event.transactionId === linkChargeId), 'transaction.paid webhook of the link charge');
    const { data: linkRead } = await pixgate.GET('/v1/payment-links/{linkId}', { params: { path: { linkId: link.linkId } } });
    console.log(`  read back → status=${linkRead.status} paymentsCount=${linkRead.paymentsCount} receivedCents=${linkRead.receivedCents} payment ${linkRead.payments?.[0]?.transactionId} status=${linkRead.payments?.[0]?.status}`);
    const { data: linkOff } = await pixgate.POST('/v1/payment-links/{linkId}/deactivate', { params: { path: { linkId: link.linkId } } });
    console.log(`  deactivated → ${linkOff.linkId} status=${linkOff.status}`);

    console.log(`\nExample finished: charge ${id} paid, refund ${refund.refundId} of 400 cents confirmed, webhooks verified.`);
  } finally {
    await sandbox('DELETE', `/admin/v1/accounts/${accountId}/webhooks/${endpoint.endpointId}`);
    receiver.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    const detail = error instanceof PixGateError ? `${error.status} ${error.operation}: ${error.message}` : error instanceof Error ? error.message : String(error);
    console.error(`example failed: ${detail}`);
    process.exit(1);
  },
);
