/**
 * `node scripts/ci-summary.ts [--exit-code N] [--failed-step NAME]`: what CI ran, added up from the JUnit files
 * the suites wrote (`reports/junit/*.xml` from vitest with PIXGATE_JUNIT set, `reports/schemathesis-junit.xml`
 * from conformance), with the time of every CI step (`reports/timings/ci-steps.tsv`, written by .ci/run), each
 * suite's wall time and the ten slowest test files (`reports/timings/*.json`, vitest.reporters.ts).
 *
 * .ci/run calls it from its EXIT trap, also when a step failed (`--exit-code` and `--failed-step` say which):
 * its last line is the run's closing line, `Tests: N passed, N failed, N skipped`, the last thing CI prints.
 * A failed step with no failed test counts as one failure, so a failing run never closes on `0 failed`.
 * Exits 1 when no test ran or the run failed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SuiteTimings } from '../vitest.reporters.ts';
import { fromRoot } from './lib/paths.ts';

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

const { values } = parseArgs({ options: { 'exit-code': { type: 'string', default: '0' }, 'failed-step': { type: 'string', default: '' } } });
const exitCode = Number(values['exit-code']) || 0;
const failedStep = values['failed-step'] ?? '';

/** The counts of a JUnit document, from its test cases (reporters differ in the totals they write on the root). */
function countsOf(xml: string): Counts {
  const count = (tag: string) => xml.match(new RegExp(`<${tag}[\\s/>]`, 'g'))?.length ?? 0;
  return { tests: count('testcase'), failures: count('failure'), errors: count('error'), skipped: count('skipped') };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The CPU a step used (reports/timings/NAME.cpu, GNU time's `%U %S`), as `, N CPU-s`; empty when not measured. */
function cpuOf(step: string): string {
  const file = fromRoot('reports', 'timings', `${step}.cpu`);
  if (!existsSync(file)) return '';
  const [user, system] = readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
  if (user === undefined || system === undefined || !Number.isFinite(user + system)) return '';
  return `, ${Math.round(user + system)} CPU-s`;
}

function printStepTimes(): void {
  const file = fromRoot('reports', 'timings', 'ci-steps.tsv');
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [step, elapsed, status] = line.split('\t');
    console.log(`ci-summary: step ${step}: ${elapsed} s${cpuOf(step ?? '')}${status === '0' ? '' : ` (exit ${status})`}`);
  }
}

function printSuiteTimes(): void {
  const dir = fromRoot('reports', 'timings');
  if (!existsSync(dir)) return;
  const suites = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as SuiteTimings);
  const files: Array<{ suite: string; file: string; ms: number }> = [];
  for (const suite of suites) {
    console.log(`ci-summary: suite ${suite.suite}: ${seconds(suite.wallMs)} wall, ${suite.files.length} files`);
    files.push(...suite.files.map((entry) => ({ suite: suite.suite, ...entry })));
  }
  files.sort((a, b) => b.ms - a.ms);
  if (files.length > 0) console.log('ci-summary: the ten slowest test files:');
  for (const entry of files.slice(0, 10)) console.log(`ci-summary:   ${seconds(entry.ms).padStart(8)}  ${entry.file} (${entry.suite})`);
}

const files: string[] = [];
const junitDir = fromRoot('reports', 'junit');
if (existsSync(junitDir)) files.push(...readdirSync(junitDir).filter((f) => f.endsWith('.xml')).sort().map((f) => path.join(junitDir, f)));
const schemathesis = fromRoot('reports', 'schemathesis-junit.xml');
if (existsSync(schemathesis)) files.push(schemathesis);

printStepTimes();
printSuiteTimes();
const total: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
for (const file of files) {
  const counts = countsOf(readFileSync(file, 'utf8'));
  for (const key of Object.keys(total) as Array<keyof Counts>) total[key] += counts[key];
  const passed = counts.tests - counts.failures - counts.errors - counts.skipped;
  console.log(`ci-summary: ${path.basename(file)}: ${counts.tests} tests, ${passed} passed, ${counts.failures + counts.errors} failed, ${counts.skipped} skipped`);
}
const passed = total.tests - total.failures - total.errors - total.skipped;
let failed = total.failures + total.errors;
console.log(`ci-summary: ${files.length} suites, ${total.tests} tests`);
if (exitCode !== 0) {
  console.log(`ci-summary: the run failed at step "${failedStep || 'unknown'}" (exit ${exitCode})`);
  // A step that failed without a failed test (lint, a crash, a timeout) still counts: the closing line never says 0 failed.
  if (failed === 0) failed = 1;
}
// The run's closing line, in the plain form CI reads ("N passed, N failed, N skipped" after one word and a colon),
// the last thing .ci/run prints: without it, CI records the run as running no test.
console.log(`Tests: ${passed} passed, ${failed} failed, ${total.skipped} skipped`);
process.exit(total.tests === 0 || exitCode !== 0 ? 1 : 0);
