import { defineConfig } from 'vitest/config';
import { outputFile, reporters, testWorkers } from './vitest.reporters.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Child processes (the Prism mock in test/contract/mock.test.ts) are safest in forked workers.
    pool: 'forks',
    // Files side by side (issue 33): every gateway listens on a port of its own (port 0), on a database of its
    // own (a copy of the run's template), with temporary directories of its own (mkdtemp).
    maxWorkers: testWorkers(),
    // The migrated template and the fake provider's certificates, made once per run (test/support/templates.ts).
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 20_000,
    // Starting Prism and loading the spec takes a few seconds; allow for a slow CI machine.
    hookTimeout: 90_000,
    teardownTimeout: 15_000,
    reporters,
    ...(outputFile ? { outputFile } : {}),
  },
});
