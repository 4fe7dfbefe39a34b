/**
 * Reporters of every vitest run: the default one, the timings (below), plus a JUnit file in `reports/junit/`
 * when `PIXGATE_JUNIT` names the run (CI sets it for each suite; `node scripts/ci-summary.ts` adds them up).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const name = process.env.PIXGATE_JUNIT;
const tag = name ? `${name.replace(/\W+/g, '-')}-${process.pid}` : undefined;

/** What `reports/timings/<suite>-<pid>.json` holds: read by scripts/ci-summary.ts. */
export interface SuiteTimings {
  suite: string;
  wallMs: number;
  /** Each file's time from the start of its import to the end of its last hook, in the order run. */
  files: Array<{ file: string; ms: number }>;
}

/**
 * Prints the run's wall time last (`npm test` wall time, also for a run that fails) and, when the run is
 * named (PIXGATE_JUNIT), writes each file's time to `reports/timings/` so CI can print the slowest (issue 33).
 */
class Timings implements Reporter {
  private readonly startedAt = performance.now();
  private root = process.cwd();
  private workers = 1;

  onInit(vitest: { config: { root: string; maxWorkers: number; fileParallelism?: boolean } }): void {
    this.root = vitest.config.root;
    this.workers = vitest.config.fileParallelism === false ? 1 : vitest.config.maxWorkers;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const wallMs = Math.round(performance.now() - this.startedAt);
    const files = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return { file: path.relative(this.root, module.moduleId), ms: Math.round(diagnostic.collectDuration + diagnostic.duration) };
    });
    if (name && tag) {
      const dir = path.join(this.root, 'reports', 'timings');
      mkdirSync(dir, { recursive: true });
      const timings: SuiteTimings = { suite: name, wallMs, files };
      writeFileSync(path.join(dir, `${tag}.json`), `${JSON.stringify(timings, null, 2)}\n`);
    }
    const seconds = Math.round(wallMs / 1000);
    console.log(`\nwall time: ${Math.floor(seconds / 60)} min ${seconds % 60} s (${files.length} files, ${this.workers} workers)`);
  }
}

/**
 * Test files run side by side, one worker per core by default (vitest's own default leaves one core idle,
 * so on 2 cores it ran one file at a time). PIXGATE_TEST_WORKERS overrides it (CI runs two suites side by
 * side with one worker each).
 */
export function testWorkers(): number {
  const fromEnv = Number(process.env.PIXGATE_TEST_WORKERS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : availableParallelism();
}

export const reporters: Array<string | Reporter> = name ? ['default', 'junit', new Timings()] : ['default', new Timings()];
export const outputFile = tag ? { junit: `reports/junit/${tag}.xml` } : undefined;
