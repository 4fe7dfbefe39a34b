/**
 * The contract workflows (workflows/pixgate.arazzo.yaml) against the mock: the stateless ones pass, and a
 * workflow that needs the gateway's state fails there (its criteria do check the answers: the mock answers
 * the documented 200 example where merchant B must get 404). `npm run test:workflows` runs them all against
 * a real gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockServer } from '../../scripts/lib/mock.ts';
import { STATELESS_WORKFLOWS, runRespect } from '../../scripts/lib/workflows.ts';
import { generatedPath } from './helpers.ts';

const KEY = `pixg_${'0123456789abcdef'.repeat(4)}`;
let mock: MockServer | undefined;

beforeAll(async () => {
  mock = await startMock({ spec: generatedPath('openapi.json'), port: 0, readyTimeoutMs: 60_000 });
});
afterAll(async () => {
  await mock?.stop();
});

function servers(): Record<string, string> {
  if (!mock) throw new Error('the mock is not running');
  return { merchant: mock.baseUrl };
}

describe('contract workflows against the mock', () => {
  it(`the stateless workflows pass (${STATELESS_WORKFLOWS.join(', ')})`, async () => {
    const result = await runRespect({ workflows: STATELESS_WORKFLOWS, servers: servers(), inputs: { merchantKey: KEY, runId: 'test' } });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`Workflows: ${STATELESS_WORKFLOWS.length} passed, ${STATELESS_WORKFLOWS.length} total`);
  });

  it('cross-merchant-read fails on the mock: the other merchant gets the 200 example, not the 404 it must get', async () => {
    const result = await runRespect({
      workflows: ['cross-merchant-read'],
      servers: servers(),
      inputs: { merchantKey: KEY, otherMerchantKey: KEY, runId: 'test' },
    });
    expect(result.code, result.stdout).not.toBe(0);
    expect(result.stdout).toContain('read-as-other-merchant');
    expect(result.stdout).toContain('$statusCode == 404');
  });
});
