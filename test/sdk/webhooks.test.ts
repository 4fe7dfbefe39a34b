import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
// The verifier, imported by the package's exported name as a merchant would.
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from 'pixgate/webhooks';

/** The Standard Webhooks test vector the AsyncAPI document publishes (../shared/reference/pix-facts.md). */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const vectorHeaders = { 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature };

const SECRET = 'whsec_c2VjcmV0LWZvci10aGUtc2RrLXRlc3RzLTAxMjM0NQ==';
const paid = {
  eventId: 'evt_0123456789abcdef01234567',
  event: 'transaction.paid',
  category: 'cashin',
  occurredAt: 1795000000000,
  transactionId: 'tx_0123456789abcdef01234567',
  type: 'pix_in',
  status: 'paid',
  amountCents: 1000,
  feeCents: 10,
  netCents: 990,
};

function signed(body: string, at: Date, secret = SECRET, id = paid.eventId) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('pixgate/webhooks verifyWebhook', () => {
  it('accepts the documented test vector at its own time, and refuses it 5 minutes and 1 second later', () => {
    // The vector's body is not an event, so the check past the signature refuses it; the signature and the
    // time are what this test is about, so its error message is checked.
    vi.useFakeTimers({ now: VECTOR.timestamp * 1000, toFake: ['Date'] });
    expect(() => verifyWebhook(VECTOR.body, vectorHeaders, VECTOR.secret)).toThrow('Signed body is not a PixGate event');
    expect(() => verifyWebhook(VECTOR.body, { ...vectorHeaders, 'webhook-signature': 'v1,AAAA' }, VECTOR.secret)).toThrow(
      'No matching signature found',
    );
    vi.setSystemTime((VECTOR.timestamp + 300) * 1000);
    expect(() => verifyWebhook(VECTOR.body, vectorHeaders, VECTOR.secret)).toThrow('Signed body is not a PixGate event');
    vi.setSystemTime((VECTOR.timestamp + 301) * 1000);
    expect(() => verifyWebhook(VECTOR.body, vectorHeaders, VECTOR.secret)).toThrow('Message timestamp too old');
    vi.setSystemTime((VECTOR.timestamp - 301) * 1000);
    expect(() => verifyWebhook(VECTOR.body, vectorHeaders, VECTOR.secret)).toThrow('Message timestamp too new');
  });

  it('returns the event typed as a union discriminated by `event`', () => {
    const body = JSON.stringify(paid);
    const event = verifyWebhook(body, signed(body, new Date()), SECRET);
    expect(event).toEqual(paid);
    expectTypeOf(event).extract<WebhookEvent>().toHaveProperty('event');
    if (event.event !== 'transaction.paid') throw new Error('not narrowed');
    expectTypeOf(event.netCents).toEqualTypeOf<number>();
    expectTypeOf(event.event).toEqualTypeOf<'transaction.paid'>();
  });

  it('takes Node headers (any case, arrays), fetch Headers, a Buffer or Uint8Array body and the X-Service-* names', () => {
    const body = JSON.stringify(paid);
    const headers = signed(body, new Date());
    const upper = { 'Webhook-Id': [headers['webhook-id']], 'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'], 'webhook-signature': headers['webhook-signature'] };
    expect(verifyWebhook(Buffer.from(body), upper, SECRET)).toEqual(paid);
    // The bytes of a fetch-style request (`new Uint8Array(await request.arrayBuffer())`), not only a Buffer.
    expect(verifyWebhook(new TextEncoder().encode(body), headers, SECRET)).toEqual(paid);
    expect(verifyWebhook(body, new Headers(headers), SECRET)).toEqual(paid);
    const legacy = {
      'x-service-event-id': headers['webhook-id'],
      'x-service-timestamp': headers['webhook-timestamp'],
      'x-service-signature': headers['webhook-signature'],
    };
    expect(verifyWebhook(body, legacy, SECRET)).toEqual(paid);
  });

  it('accepts either signature during a secret rotation', () => {
    const body = JSON.stringify(paid);
    const at = new Date();
    const oldSecret = 'whsec_b2xkLXNlY3JldC1vZi10aGUtc2RrLXRlc3RzLTAx';
    const both = { ...signed(body, at), 'webhook-signature': `${new Webhook(oldSecret).sign(paid.eventId, at, body)} ${signed(body, at)['webhook-signature']}` };
    expect(verifyWebhook(body, both, SECRET)).toEqual(paid);
    expect(verifyWebhook(body, both, oldSecret)).toEqual(paid);
  });

  it('refuses a changed body, another secret, a missing header and a body that is not an event', () => {
    const body = JSON.stringify(paid);
    const headers = signed(body, new Date());
    const tampered = body.replace('"netCents":990', '"netCents":99000');
    expect(() => verifyWebhook(tampered, headers, SECRET)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(body, headers, 'whsec_YW5vdGhlci1zZWNyZXQtMDEyMzQ1Njc4OWFi')).toThrow('No matching signature found');
    const { 'webhook-signature': _dropped, ...unsigned } = headers;
    expect(() => verifyWebhook(body, unsigned, SECRET)).toThrow('Missing required headers');
    const array = '[1,2]';
    expect(() => verifyWebhook(array, signed(array, new Date()), SECRET)).toThrow('Signed body is not a PixGate event');
  });
});
