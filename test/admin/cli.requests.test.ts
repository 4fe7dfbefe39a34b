/**
 * Every command of the back-office CLI against the fake server: its method, path, query and body, the
 * token it sends, and what its human-readable output shows.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.ts';
import { baseCases } from './cli.cases.ts';
import { fakeAdmin, TOKEN } from './cli.harness.ts';
import { booksCases } from './cli.books.cases.ts';
import { moneyOutCases } from './cli.moneyout.cases.ts';
import { webhookCases } from './cli.webhooks.cases.ts';

const admin = fakeAdmin();
const cases = [...baseCases, ...moneyOutCases, ...booksCases, ...webhookCases];

describe('admin CLI requests', () => {
  it.each(cases)('$name', async (c) => {
    admin.answer(200, c.answer);
    const result = await admin.run(c.argv);

    expect(result.code, result.stderr).toBe(0);
    expect(admin.recorded()).toHaveLength(1);
    const [request] = admin.recorded();
    expect(request?.method).toBe(c.method);
    expect(request?.url).toBe(c.url);
    expect(request?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.body).toEqual(c.body);
    expect(request?.contentType).toBe(c.body === undefined ? undefined : 'application/json');
    expect(result.stdout).toContain(c.shows);
    expect(`${result.stdout}${result.stderr}`).not.toContain(TOKEN);
  });

  it('covers every command of the CLI', () => {
    const tested = new Set(cases.map((c) => c.argv[0]));
    expect(COMMANDS.map((command) => command.name).filter((name) => !tested.has(name))).toEqual([]);
  });

  it('has no two commands with the same name', () => {
    const names = COMMANDS.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
