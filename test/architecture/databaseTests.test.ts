import { describe, expect, it } from 'vitest';
import { testFilesMockingModules, testFilesWithoutDatabase } from '../../scripts/lib/databaseTests.ts';

/** `npm run test:pg` leaves to `npm test` the files that reach no database (scripts/lib/databaseTests.ts). */
describe('the files the Postgres pass leaves out', () => {
  const left = testFilesWithoutDatabase();

  it('are the ones that never open a database, however they would reach one', () => {
    // Pure functions and the contract's documents.
    expect(left).toEqual(expect.arrayContaining(['test/pix/crc16.test.ts', 'test/contract/examples.test.ts', 'test/web/money.test.ts']));
    // Through the gateway harness (test/support/gateway.ts → src/db/connect.ts).
    expect(left).not.toContain('test/ledger/consistency.test.ts');
    expect(left).not.toContain('test/backoffice/roles.test.ts');
    // Through the dashboard's helpers, which import the harness.
    expect(left).not.toContain('test/dashboard/csvExportFailure.test.ts');
    // Through the process harness, which reads the Postgres server's URL from the environment.
    expect(left).not.toContain('test/faults/crash.test.ts');
    // The migration tests, which open empty databases.
    expect(left).not.toContain('test/ledger/migration.test.ts');
  });

  it('are a minority of the files, every one of them a test file', () => {
    expect(left.length).toBeGreaterThan(10);
    expect(left.length).toBeLessThan(60);
    for (const file of left) expect(file).toMatch(/^test\/.+\.test\.ts$/);
  });
});

/** vitest.config.ts runs isolated the files that `vi.mock` a module (scripts/lib/databaseTests.ts). */
describe('the files run isolated', () => {
  it('are the ones that mock a module, and only those', () => {
    expect(testFilesMockingModules()).toEqual(['test/dashboard/csvExportFailure.test.ts']);
  });
});
