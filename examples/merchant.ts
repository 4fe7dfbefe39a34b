/**
 * `npm run example:merchant`: a merchant's integration, end to end, with the integration kit only
 * (`pixgate/client` for every API call, `pixgate/webhooks` for every delivery):
 *
 *   1. starts a webhook receiver (a local HTTP server) that verifies each delivery's signature;
 *   2. creates a charge with POST /v1/pix, and shows a refused request as a PixGateError;
 *   3. waits for the charge's `transaction.paid` webhook (the sandbox pays it);
 *   4. reads the transaction back with GET /v1/transactions/{id} before "releasing the goods".
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
        const about = event.event === 'webhook.test' ? 'test delivery' : `${event.transactionId} status=${event.status}`;
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
