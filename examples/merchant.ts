/**
 * `npm run example:merchant`: a merchant's integration, end to end, with the integration kit only
 * (`pixgate/client` for every API call, `pixgate/webhooks` for every delivery):
 *
 *   1. starts a webhook receiver (a local HTTP server) that verifies each delivery's signature;
 *   2. creates a charge with POST /v1/pix, and shows a refused request as a PixGateError;
 *   3. waits for the charge's `transaction.paid` webhook (the sandbox pays it);
 *   4. reads the transaction back with GET /v1/transactions/{id} before "releasing the goods";
 *   5. creates a static QR code of a fixed amount (POST /v1/static-qrcodes) for a till, has a payer pay it
 *      (the sandbox), waits for the payment's `transaction.paid` webhook, reads the code back with its
 *      payments (GET /v1/static-qrcodes/{id}, GET /v1/transactions?staticQrCodeId=…) and deactivates it;
 *   6. creates a payment link (POST /v1/payment-links), reads it back (GET /v1/payment-links/{linkId}) and
 *      deactivates it (POST /v1/payment-links/{linkId}/deactivate).
 *
 * Against `npm start` (another terminal): `PIXGATE_API_KEY=pixg_… npm run example:merchant` with the key
 * `npm start` printed. Environment: PIXGATE_URL (default http://127.0.0.1:3000), PIXGATE_API_KEY. The two
 * sandbox steps that are not merchant calls (registering this receiver's URL, paying the charge) use the
 * back office: PIXGATE_ADMIN_URL (default http://127.0.0.1:3001), ADMIN_TOKEN (default `.data/admin-token`);
 * see examples/sandbox.ts.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, PixGateError } from 'pixgate/client';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookTestEvent } from 'pixgate/webhooks';
import { Sandbox, sandboxOptionsFromEnv } from './sandbox.ts';

const WAIT_MS = 60_000;

const apiKey = process.env['PIXGATE_API_KEY'] ?? '';
if (apiKey === '') {
  console.error('Set PIXGATE_API_KEY to an API key of the account (npm start prints the demo key).');
  process.exit(2);
}
const pixgate = createClient({ baseUrl: process.env['PIXGATE_URL'] || 'http://127.0.0.1:3000', apiKey });
const sandbox = new Sandbox(sandboxOptionsFromEnv(process.env));

// 1. The webhook receiver: verify with the raw body, answer 400 to anything unverified, 200 quickly otherwise.
let secret = '';
const received: (WebhookEvent | WebhookTestEvent)[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      const event = verifyWebhook(Buffer.concat(chunks), req.headers, secret);
      // Deliveries can repeat (retries, resends): deduplicate on eventId.
      if (!received.some((seen) => seen.eventId === event.eventId)) {
        received.push(event);
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

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pixgate`;
  const accountId = await sandbox.accountOf(apiKey);
  const endpoint = await sandbox.registerWebhook(accountId, receiverUrl);
  secret = endpoint.secret;
  console.log(`Webhook receiver on ${receiverUrl} (registered for account ${accountId})`);
  try {
    const { data: balanceBefore } = await pixgate.GET('/v1/balance');

    console.log('\n1. A charge of R$ 10,00 (POST /v1/pix)');
    const customer = { name: 'Maria da Silva', email: 'maria@example.com', phone: '11987654321', document: { number: '52998224725', type: 'cpf' } };
    const { data: charge, response } = await pixgate.POST('/v1/pix', {
      body: { amountCents: 1000, externalRef: `example-${randomUUID()}`, customer },
    });
    console.log(`  → ${response.status} ${charge.transactionId} status=${charge.status} pixPayload=${charge.pixPayload.slice(0, 32)}…`);

    console.log('\n2. A refused request surfaces as a PixGateError');
    try {
      await pixgate.POST('/v1/pix', { body: { amountCents: 50, customer } });
      throw new Error('a charge of 50 cents was accepted');
    } catch (error) {
      if (!(error instanceof PixGateError)) throw error;
      console.log(`  → PixGateError ${error.status} ${error.operation}: ${error.message}`);
    }

    console.log('\n3. The payer pays (sandbox); the webhook arrives');
    await sandbox.payCharge(charge.transactionId);
    const paid = await waitFor(
      () => received.find((event) => event.event === 'transaction.paid' && event.transactionId === charge.transactionId),
      'transaction.paid webhook',
    );
    if (paid.event !== 'transaction.paid') throw new Error('unreachable');
    console.log(`  transaction.paid: netCents=${paid.netCents}, endToEndId=${paid.endToEndId ?? '-'}`);

    console.log('\n4. Confirm by reading the transaction (GET /v1/transactions/{id})');
    const { data: transaction } = await pixgate.GET('/v1/transactions/{id}', { params: { path: { id: charge.transactionId } } });
    if (transaction.status !== 'paid') throw new Error(`the transaction reads ${transaction.status}, not paid`);
    const { data: balanceAfter } = await pixgate.GET('/v1/balance');
    console.log(`  → ${transaction.transactionId} status=${transaction.status} netCents=${transaction.netCents}`);
    console.log(`  balance: available ${balanceBefore.available} → ${balanceAfter.available} cents`);

    console.log('\n5. A static QR code of R$ 15,00 for a till (POST /v1/static-qrcodes), paid, read back, deactivated');
    const { data: code, response: codeCreated } = await pixgate.POST('/v1/static-qrcodes', {
      body: { amountCents: 1500, description: 'Caixa 1', externalRef: `caixa-${randomUUID()}` },
    });
    console.log(`  → ${codeCreated.status} ${code.staticQrCodeId} status=${code.status} amountCents=${code.amountCents ?? 'open'}`);
    // Every Pix a payer sends to the code is a paid charge of its own, with its own transaction.paid webhook.
    const scanned = await sandbox.payStaticQrCode(code.staticQrCodeId);
    if (scanned.outcome !== 'credited' || scanned.payment === undefined) throw new Error(`the static QR code's Pix was ${scanned.outcome} (${scanned.reason ?? '-'})`);
    const codePaymentId = scanned.payment.transactionId;
    await waitFor(() => received.find((event) => event.event === 'transaction.paid' && event.transactionId === codePaymentId), 'transaction.paid webhook of the static QR code');
    const { data: codeRead } = await pixgate.GET('/v1/static-qrcodes/{id}', { params: { path: { id: code.staticQrCodeId } } });
    console.log(`  read back → paymentsCount=${codeRead.paymentsCount} receivedCents=${codeRead.receivedCents}`);
    const { data: codePayments } = await pixgate.GET('/v1/transactions', { params: { query: { staticQrCodeId: code.staticQrCodeId } } });
    for (const payment of codePayments.transactions) console.log(`  payment: ${payment.transactionId} status=${payment.status} amountCents=${payment.amountCents}`);
    const { data: codeOff } = await pixgate.POST('/v1/static-qrcodes/{id}/deactivate', { params: { path: { id: code.staticQrCodeId } } });
    console.log(`  deactivated → ${codeOff.staticQrCodeId} status=${codeOff.status}`);

    console.log('\n6. A payment link of R$ 49,90 (POST /v1/payment-links), read back, deactivated');
    const { data: link, response: linkCreated } = await pixgate.POST('/v1/payment-links', {
      body: { amountCents: 4990, description: 'Camiseta azul, tamanho M', expiresInDays: 7, externalRef: `pedido-${randomUUID()}` },
    });
    console.log(`  → ${linkCreated.status} ${link.linkId} status=${link.status} url=${link.url}`);
    const { data: linkRead } = await pixgate.GET('/v1/payment-links/{linkId}', { params: { path: { linkId: link.linkId } } });
    console.log(`  read back → status=${linkRead.status} paymentsCount=${linkRead.paymentsCount} payments=${linkRead.payments?.length ?? 0}`);
    const { data: linkOff } = await pixgate.POST('/v1/payment-links/{linkId}/deactivate', { params: { path: { linkId: link.linkId } } });
    console.log(`  deactivated → ${linkOff.linkId} status=${linkOff.status}`);

    console.log(`\nExample finished: charge ${charge.transactionId} paid, webhook verified, transaction read back.`);
  } finally {
    await sandbox.removeWebhook(accountId, endpoint.endpointId);
    receiver.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const detail = error instanceof PixGateError ? `${error.status} ${error.operation}: ${error.message}` : error instanceof Error ? error.message : String(error);
    console.error(`example failed: ${detail}`);
    process.exit(1);
  },
);
