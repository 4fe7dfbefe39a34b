import { defineConfig } from 'vitest/config';
import { testFilesMockingModules, testFilesWithoutDatabase } from './scripts/lib/databaseTests.ts';
import { outputFile, reporters, testWorkers } from './vitest.reporters.ts';

/**
 * The files that replace a module of the gateway with `vi.mock`: a mock applies only to a module not yet
 * loaded, so these run in a process of their own each (isolated); every other file shares its worker's
 * loaded modules with the files run before it there (below). Found by their text (scripts/lib/databaseTests.ts),
 * so a new file that mocks is isolated without being listed.
 */
const mockingFiles = testFilesMockingModules();

/**
 * Globs left out of the run, comma-separated (`npm run test:pg` leaves the fault tests to a run of their own,
 * one file at a time). The command line's `--exclude` does not reach the projects below, so it comes this way.
 */
const excluded = [
  ...(process.env.PIXGATE_TEST_EXCLUDE ?? '').split(',').filter(Boolean),
  // `npm run test:pg`: the files that reach no database run exactly as they do in `npm test` (scripts/lib/databaseTests.ts).
  ...(process.env.PIXGATE_TEST_DATABASE_FILES_ONLY === '1' ? testFilesWithoutDatabase() : []),
];

export default defineConfig({
  test: {
    // Child processes (the Prism mock in test/contract/mock.test.ts) are safest in forked workers.
    pool: 'forks',
    // Files side by side (issue 33): every gateway listens on a port of its own (port 0), on a database of its
    // own (a copy of the run's template), with temporary directories of its own (mkdtemp).
    maxWorkers: testWorkers(),
    // The migrated template and the fake provider's certificates, made once per run (test/support/templates.ts).
    globalSetup: ['test/support/globalSetup.ts'],
    // Two projects, one configuration: the files that mock a module isolated, the rest not (issue 33). Without
    // isolation a worker keeps the modules it loaded (the gateway, Ajv, PGlite, Express) from one file to the
    // next instead of importing and compiling them again for each of the 136 files: `npm test` went from
    // 5 min 10 s to about 3 min 15 s on 2 cores. Each file still starts its own gateways on its own databases;
    // nothing a file changes in the process outlives it (no test file sets process.env or a global).
    projects: [
      { extends: true, test: { name: 'isolated', include: mockingFiles, exclude: excluded, isolate: true } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...mockingFiles, ...excluded], isolate: false } },
    ],
    testTimeout: 20_000,
    // Starting Prism and loading the spec takes a few seconds; allow for a slow CI machine.
    hookTimeout: 90_000,
    teardownTimeout: 15_000,
    reporters,
    ...(outputFile ? { outputFile } : {}),
  },
});
