import { defineConfig } from 'vitest/config';
import { outputFile, reporters } from './vitest.reporters.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Child processes (the Prism mock in test/contract/mock.test.ts) are safest in forked workers.
    pool: 'forks',
    testTimeout: 20_000,
    // Starting Prism and loading the spec takes a few seconds; allow for a slow CI machine.
    hookTimeout: 90_000,
    teardownTimeout: 15_000,
    reporters,
    ...(outputFile ? { outputFile } : {}),
  },
});
