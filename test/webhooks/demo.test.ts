import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('npm run demo', () => {
  it('walks a charge and a withdrawal to paid and verifies every webhook signature', async () => {
    const { stdout } = await run(process.execPath, ['scripts/demo.ts'], { timeout: 90_000 });
    for (const event of ['transaction.paid', 'transfer.created', 'transfer.processing', 'transfer.paid']) {
      expect(stdout).toMatch(new RegExp(`webhook ${event.replace('.', '\\.')} .* signature verified`));
    }
    expect(stdout).not.toContain('REJECTED');
    expect(stdout).toContain('Every webhook arrived and verified.');
  }, 120_000);
});
