import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, useGateway } from '../support/gateway.ts';

/** The back office, its reference and the console live on the service team's listener, never the merchant host. */
const gateway = useGateway();

describe('the merchant host and the service team listener', () => {
  it('does not answer the back office on the merchant host', async () => {
    const answer = await fetch(`${gateway.baseUrl}/admin/v1/accounts`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(answer.status).toBe(404);
    expect((await fetch(`${gateway.baseUrl}/docs/admin.html`)).status).toBe(404);
    const index = await (await fetch(`${gateway.baseUrl}/docs/`)).text();
    expect(index).not.toContain('admin.html');
  });

  it('answers the back office and its reference on the admin listener', async () => {
    const answer = await fetch(`${gateway.adminBaseUrl}/admin/v1/accounts`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(answer.status).toBe(200);
    const docs = await fetch(`${gateway.adminBaseUrl}/docs/admin.html`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('PixGate back-office API');
  });

  it('does not answer the merchant API on the admin listener', async () => {
    expect((await fetch(`${gateway.adminBaseUrl}/v1/balance`)).status).toBe(404);
  });
});
