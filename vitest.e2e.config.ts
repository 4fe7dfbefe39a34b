import { defineConfig } from 'vitest/config';
import { outputFile, reporters } from './vitest.reporters.ts';

/**
 * `npm run test:e2e`: the browser tests (test/e2e/*.e2e.ts) in Debian's Chromium through Playwright, one
 * file at a time, against a gateway process each file starts. Screenshots go to reports/screens/.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    reporters,
    ...(outputFile ? { outputFile } : {}),
  },
});
