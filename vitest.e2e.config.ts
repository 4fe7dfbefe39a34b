import { defineConfig } from 'vitest/config';
import { outputFile, reporters, testWorkers } from './vitest.reporters.ts';

/**
 * `npm run test:e2e`: the browser tests (test/e2e/*.e2e.ts) in Debian's Chromium through Playwright, one
 * file per core side by side (PIXGATE_TEST_WORKERS overrides it), each against a gateway process of its own
 * (port 0, its own database and directories) and a browser of its own. They mostly wait on pages and the
 * gateway's timers (10 files: 152 s two at a time alone on 2 cores; 390 s one at a time in CI beside the
 * PSP pass and conformance). Screenshots go to reports/screens/.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    pool: 'forks',
    maxWorkers: testWorkers(),
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    reporters,
    ...(outputFile ? { outputFile } : {}),
  },
});
