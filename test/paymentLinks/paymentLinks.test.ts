import { beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../../src/http/inlineScripts.ts';
import { messages } from '../../src/messages/merchant.ts';
import { NEW_CHARGES_PER_ADDRESS, NEW_CHARGES_PER_ADDRESS_AND_LINK } from '../../src/paymentLinks/paymentLink.charge.ts';
import { createMerchant, postAsMerchant, useGateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 36: payment links over HTTP. The merchant's side (/v1/payment-links: create, idempotency, every
 * refusal with its Portuguese message, list, read with its charges, deactivate twice) and the payer's
 * (/pay/{linkId}: the page of an active, inactive, expired or used link; its status; a sandbox payment turning
 * the charge paid and a single-use link `used`). On the simulated provider here; on the fake provider's both
 * profiles in `test:psp`.
 */
const gateway = useGateway();
let merchant: MerchantFixture;
type Body = Record<string, unknown>;

const DAY_MS = 86_400_000;

beforeAll(async () => {
  merchant = await createMerchant(gateway, { legalName: 'Camisetas & Cia <Ltda>' });
});

async function send(method: string, path: string, body?: unknown, apiKey = merchant.apiKey) {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

const create = (body: Body) => postAsMerchant(gateway, merchant, '/v1/payment-links', body);

async function created(body: Body = {}): Promise<Body> {
  const answer = await create({ amountCents: 4_990, description: 'Camiseta azul, tamanho M', ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** The payer opens the page (no API key), optionally with the cookie a previous open set. */
async function open(linkId: string, cookie?: string) {
  const response = await fetch(`${gateway.baseUrl}/pay/${linkId}`, { headers: cookie === undefined ? {} : { Cookie: cookie } });
  const html = await response.text();
  const charge = /data-charge="(tx_[0-9a-f]{24})"/.exec(html)?.[1];
  return { status: response.status, html, charge, headers: response.headers, cookie: response.headers.get('set-cookie')?.split(';')[0] };
}

async function statusOf(linkId: string, charge: string) {
  const response = await fetch(`${gateway.baseUrl}/pay/${linkId}/status?charge=${charge}`);
  return { status: response.status, body: (await response.json()) as Body };
}

async function pay(transactionId: string) {
  const answer = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId } } });
  expect(answer.response.status, JSON.stringify(answer.error)).toBe(200);
}

describe('POST /v1/payment-links', () => {
  it('creates an active single-use link with its absolute page address', async () => {
    const link = await created({ expiresInDays: 7 });
    expect(link.linkId).toMatch(/^pl_[0-9a-f]{24}$/);
    expect(link).toMatchObject({ status: 'active', amountCents: 4_990, description: 'Camiseta azul, tamanho M', reusable: false, paymentsCount: 0, receivedCents: 0 });
    // Absolute, on the host the request reached (through the contract proxy under test:psp, the proxy's).
    expect(new URL(String(link.url)).pathname).toBe(`/pay/${String(link.linkId)}`);
    expect(String(link.url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/pl_[0-9a-f]{24}$/);
    expect(link.expiresAt).toBe(Math.floor((gateway.clock.now() + 7 * DAY_MS) / 1000));
    expect(link).not.toHaveProperty('idempotent');
  });

  it('returns 200 idempotent with the same link for a repeated externalRef', async () => {
    const first = await created({ externalRef: 'pedido-8812' });
    const again = await create({ amountCents: 9_999, description: 'Outra coisa', externalRef: 'pedido-8812' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ linkId: first.linkId, amountCents: 4_990, idempotent: true });
  });

  it.each([
    [{ description: 'x' }, messages.chargeAmount],
    [{ amountCents: 99, description: 'x' }, messages.chargeAmount],
    [{ amountCents: 1_000 }, messages.paymentLinkDescription],
    [{ amountCents: 1_000, description: '   ' }, messages.paymentLinkDescription],
    [{ amountCents: 1_000, description: 'x'.repeat(141) }, messages.paymentLinkDescription],
    [{ amountCents: 1_000, description: 'x', reusable: 'sim' }, messages.paymentLinkReusable],
    [{ amountCents: 1_000, description: 'x', expiresInDays: 0 }, messages.paymentLinkExpiresInDays],
    [{ amountCents: 1_000, description: 'x', expiresInDays: 366 }, messages.paymentLinkExpiresInDays],
    [{ amountCents: 1_000, description: 'x', externalRef: '' }, messages.externalRef],
    [{ amountCents: 20_000_000, description: 'x' }, 'Valor acima do máximo (R$ 100.000,00).'],
    [{ amountCents: 1_000, description: 'x', expiresAt: 1 }, "Campo não permitido: 'expiresAt'."],
  ])('refuses %j with 400 and its message', async (body, message) => {
    const answer = await create(body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: message });
  });

  it('refuses a request without an API key with 401', async () => {
    const answer = await send('POST', '/v1/payment-links', { amountCents: 1_000, description: 'x' }, 'nope');
    expect(answer.status).toBe(401);
  });
});

describe('GET /v1/payment-links', () => {
  it('lists the newest first, page by page', async () => {
    const a = await created({ description: 'primeiro' });
    // The test clock stands still: a second later, so the newest is b.
    gateway.clock.set(gateway.clock.now() + 1_000);
    const b = await created({ description: 'segundo' });
    const page = await send('GET', '/v1/payment-links?limit=1');
    expect(page.status).toBe(200);
    expect((page.body.paymentLinks as Body[]).map((link) => link.linkId)).toEqual([b.linkId]);
    const next = await send('GET', `/v1/payment-links?limit=100&cursor=${String(page.body.nextCursor)}`);
    const rest = (next.body.paymentLinks as Body[]).map((link) => link.linkId);
    expect(rest).toContain(a.linkId);
    expect(rest).not.toContain(b.linkId);
  });

  it('refuses a malformed cursor and limit', async () => {
    expect((await send('GET', '/v1/payment-links?cursor=zzz')).body).toEqual({ error: messages.cursorInvalid });
    expect((await send('GET', '/v1/payment-links?limit=500')).body).toEqual({ error: messages.listLimit('500') });
  });
});

describe('GET /v1/payment-links/{linkId} and deactivate', () => {
  it('answers 400 for a malformed id and 404 for another merchant’s link', async () => {
    expect(await send('GET', '/v1/payment-links/pl_123')).toEqual({ status: 400, body: { error: messages.paymentLinkIdInvalid } });
    const link = await created();
    const other = await createMerchant(gateway);
    expect(await send('GET', `/v1/payment-links/${String(link.linkId)}`, undefined, other.apiKey)).toEqual({ status: 404, body: { error: messages.paymentLinkNotFound } });
    expect(await send('POST', `/v1/payment-links/${String(link.linkId)}/deactivate`, undefined, other.apiKey)).toEqual({
      status: 404,
      body: { error: messages.paymentLinkNotFound },
    });
  });

  it('deactivates once, answers the same on a retry, and the page then says so with 410', async () => {
    const link = await created();
    const first = await send('POST', `/v1/payment-links/${String(link.linkId)}/deactivate`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'inactive' });
    const second = await send('POST', `/v1/payment-links/${String(link.linkId)}/deactivate`);
    expect(second).toEqual(first);
    const page = await open(String(link.linkId));
    expect(page.status).toBe(410);
    expect(page.html).toContain('Link desativado');
    expect(page.charge).toBeUndefined();
  });
});

describe('GET /pay/{linkId}', () => {
  it('shows the legal name (escaped), amount, description, QR code and copy code, without an API key or script from elsewhere', async () => {
    const link = await created();
    const page = await open(String(link.linkId));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.html).toContain('<html lang="pt-BR">');
    expect(page.html).toContain('Camisetas &#38; Cia &#60;Ltda&#62;');
    expect(page.html).toContain('R$ 49,90');
    expect(page.html).toContain('Camiseta azul, tamanho M');
    expect(page.html).toContain('<svg');
    expect(page.html).toContain('aria-live="polite"');
    expect(page.html).toMatch(/<textarea id="codigo"[^>]*>000201/);
    expect(page.html).not.toContain(merchant.apiKey);
    expect(page.html).not.toContain(merchant.accountId);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    // The page's one inline script is the one its policy names: nothing else would run.
    const hashes = inlineScriptHashes(page.html);
    expect(hashes).toHaveLength(1);
    expect(policy).toContain(`script-src ${String(hashes[0])}`);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('gives a single-use link one charge for every open until it is paid, then the link is used', async () => {
    const link = await created();
    const first = await open(String(link.linkId));
    const second = await open(String(link.linkId));
    expect(first.charge).toBeDefined();
    expect(second.charge).toBe(first.charge);
    const charge = String(first.charge);
    expect(await statusOf(String(link.linkId), charge)).toEqual({ status: 200, body: { status: 'pending' } });

    const transaction = await send('GET', `/v1/transactions/${charge}`);
    expect(transaction.body).toMatchObject({ type: 'pix_in', status: 'pending', amountCents: 4_990 });

    await pay(charge);
    expect(await statusOf(String(link.linkId), charge)).toEqual({ status: 200, body: { status: 'paid' } });
    const read = await send('GET', `/v1/payment-links/${String(link.linkId)}`);
    expect(read.body).toMatchObject({ status: 'used', paymentsCount: 1, receivedCents: 4_990 });
    expect(read.body.payments).toEqual([expect.objectContaining({ transactionId: charge, status: 'paid', amountCents: 4_990 })]);
    const after = await open(String(link.linkId));
    expect(after.status).toBe(410);
    expect(after.html).toContain('Link já pago');
  });

  it('gives a reusable link a charge per browser, the same one on a reload with its cookie', async () => {
    const link = await created({ reusable: true });
    const first = await open(String(link.linkId));
    expect(first.cookie).toBe(`pixgate_charge=${String(first.charge)}`);
    const reload = await open(String(link.linkId), first.cookie);
    expect(reload.charge).toBe(first.charge);
    const otherPayer = await open(String(link.linkId));
    expect(otherPayer.charge).not.toBe(first.charge);
    await pay(String(first.charge));
    // The payer who paid, back on the page, sees it paid rather than a new charge.
    const back = await open(String(link.linkId), first.cookie);
    expect(back.status).toBe(200);
    expect(back.html).toContain('Pagamento recebido');
    expect(back.charge).toBeUndefined();
    const read = await send('GET', `/v1/payment-links/${String(link.linkId)}`);
    expect(read.body).toMatchObject({ status: 'active', paymentsCount: 1 });
    expect((read.body.payments as Body[]).map((payment) => payment.status).sort()).toEqual(['paid', 'pending']);
  });

  it('counts new charges on the payer’s address: 10 an hour on a link, 30 on all links; showing a remembered charge counts nowhere', async () => {
    const before = gateway.clock.now();
    // A UTC hour of its own, so the other tests' opens from this address are not in its counts.
    gateway.clock.set(Math.ceil((before + 40 * DAY_MS) / 3_600_000) * 3_600_000);
    try {
      const links = [] as string[];
      for (let index = 0; index < 4; index += 1) links.push(String((await created({ reusable: true })).linkId));
      const [first, second, third, fourth] = links as [string, string, string, string];
      const opens = async (linkId: string, count: number) => {
        const pages = [];
        for (let index = 0; index < count; index += 1) pages.push(await open(linkId));
        return pages;
      };
      const firstPages = await opens(first, NEW_CHARGES_PER_ADDRESS_AND_LINK);
      expect(firstPages.map((page) => page.status)).toEqual(Array(NEW_CHARGES_PER_ADDRESS_AND_LINK).fill(200));
      expect(new Set(firstPages.map((page) => page.charge)).size).toBe(NEW_CHARGES_PER_ADDRESS_AND_LINK);
      const refused = await open(first);
      expect(refused.status).toBe(429);
      expect(refused.html).toContain('Tente novamente em alguns minutos');
      // A payer back with the cookie still sees the charge given before: no new charge, no count.
      const back = await open(first, firstPages[0]?.cookie);
      expect([back.status, back.charge]).toEqual([200, firstPages[0]?.charge]);
      // The other links still open from this address, up to 30 new charges on all of them.
      const more = [...(await opens(second, NEW_CHARGES_PER_ADDRESS_AND_LINK)), ...(await opens(third, NEW_CHARGES_PER_ADDRESS - 2 * NEW_CHARGES_PER_ADDRESS_AND_LINK))];
      expect(more.every((page) => page.status === 200)).toBe(true);
      expect((await open(fourth)).status).toBe(429);
      // What was refused made no charge.
      const read = await send('GET', `/v1/payment-links/${fourth}`);
      expect(read.body.payments).toEqual([]);
      // The next hour counts anew.
      gateway.clock.set(gateway.clock.now() + 3_600_000);
      expect((await open(fourth)).status).toBe(200);
    } finally {
      gateway.clock.set(before);
    }
  });

  it('answers an expired link with 410 and an unknown or malformed one with 404', async () => {
    const link = await created({ expiresInDays: 1 });
    const before = gateway.clock.now();
    gateway.clock.set(before + DAY_MS + 1);
    try {
      const page = await open(String(link.linkId));
      expect(page.status).toBe(410);
      expect(page.html).toContain('Link expirado');
      expect((await send('GET', `/v1/payment-links/${String(link.linkId)}`)).body).toMatchObject({ status: 'expired' });
    } finally {
      gateway.clock.set(before);
    }
    expect((await open('pl_000000000000000000000000')).status).toBe(404);
    expect((await open('nada')).status).toBe(404);
  });

  it('answers the status of a charge that is not the link’s with 404', async () => {
    const a = await created();
    const b = await created();
    const charge = String((await open(String(a.linkId))).charge);
    expect((await statusOf(String(b.linkId), charge)).status).toBe(404);
    expect((await statusOf(String(a.linkId), 'tx_x')).status).toBe(404);
  });
});
