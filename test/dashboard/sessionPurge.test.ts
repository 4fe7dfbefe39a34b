import { describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src/dashboard/session.service.ts';
import { purgeHistory } from '../../src/jobs/purgeHistory.ts';
import { dashboardBrowser } from '../support/dashboardClient.ts';
import { DASHBOARD_PASSWORD, signUpOwner } from '../support/dashboardAccounts.ts';
import { useGateway } from '../support/gateway.ts';

/**
 * Issue 34 (dead code wired): expired dashboard sessions were refused on use but their rows were never
 * deleted. The hourly purge-history job deletes every session past its expiry and keeps the live ones.
 */
const gateway = useGateway();

const sessionsOf = (userId: string) =>
  gateway.deps.db.selectFrom('dashboard_sessions').select(['id', 'expires_at']).where('user_id', '=', userId).execute();

describe('purge-history deletes expired dashboard sessions', () => {
  it('deletes the sessions past their expiry, keeps the live ones, and the live one still works', async () => {
    const owner = await signUpOwner(gateway);
    expect(await sessionsOf(owner.userId)).toHaveLength(1);
    gateway.clock.advance(SESSION_IDLE_MS + 1_000);
    // The first session is past its idle expiry; a new sign-in makes a live one.
    const browser = dashboardBrowser(gateway);
    const signedIn = await browser.api.POST('/dashboard/api/v1/session', { body: { email: owner.email, password: DASHBOARD_PASSWORD } });
    expect(signedIn.response.status).toBe(200);
    expect(await sessionsOf(owner.userId)).toHaveLength(2);

    await purgeHistory(gateway.deps);
    const left = await sessionsOf(owner.userId);
    expect(left).toHaveLength(1);
    expect(left[0]!.expires_at.getTime()).toBeGreaterThan(gateway.clock.now());
    expect((await browser.api.GET('/dashboard/api/v1/session')).response.status).toBe(200);
    expect((await owner.browser.api.GET('/dashboard/api/v1/session')).response.status).toBe(401);
  });
});
