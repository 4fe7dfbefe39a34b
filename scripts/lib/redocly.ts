/**
 * Redocly CLI 2 wrappers: lint (with problems listed as `file:line:col`) and bundle.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { atPointer, collectRefs, isObject, pointerSegments, toPointer } from './json.ts';
import type { Json } from './json.ts';
import { REDOCLY_CONFIG, relativeToRoot } from './paths.ts';
import { runTool } from './run.ts';

interface LintLocation {
  source: { ref: string };
  pointer?: string;
  start?: { line: number; col: number };
}

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: LintLocation[];
}

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

export interface LintResult {
  errors: number;
  warnings: number;
  /** One line per problem: `file:line:col  severity  rule  message  (at #/pointer)`. */
  lines: string[];
}

/**
 * Lints one OpenAPI document with redocly.yaml (or the document's own configuration). Problems in the
 * configuration itself are errors too.
 */
export async function lintOpenApi(file: string, config: string = REDOCLY_CONFIG): Promise<LintResult> {
  const result = await runTool('redocly', [
    'lint',
    relativeToRoot(file),
    '--config',
    config,
    '--lint-config',
    'error',
    '--format',
    'json',
  ]);
  const jsonStart = result.stdout.indexOf('{');
  if (jsonStart < 0) {
    // No report at all: the configuration or the file could not be loaded.
    return { errors: 1, warnings: 0, lines: [`${relativeToRoot(file)}: redocly lint produced no report:`, result.stdout, result.stderr] };
  }
  const report = JSON.parse(result.stdout.slice(jsonStart)) as LintReport;
  const lines = report.problems.map((problem) => {
    const where = problem.location[0];
    const position = where?.start ? `:${where.start.line}:${where.start.col}` : '';
    const pointer = where?.pointer ? `  (at ${where.pointer})` : '';
    return `${where?.source.ref ?? '?'}${position}  ${problem.severity}  ${problem.ruleId}  ${problem.message}${pointer}`;
  });
  // Configuration problems are printed on stderr, outside the JSON report.
  const configProblems = /Your config has (\d+) (error|warning)/.exec(result.stderr);
  let errors = report.totals.errors;
  if (configProblems || (result.code !== 0 && errors === 0)) {
    errors += 1;
    lines.push(`redocly.yaml or CLI problem (exit ${result.code}):`, result.stderr.trim());
  }
  return { errors, warnings: report.totals.warnings, lines };
}

export interface BundleOptions {
  /** Use a bare configuration (no lint rules) instead of redocly.yaml: for AsyncAPI and synthetic documents. */
  bareConfig?: boolean;
}

/**
 * Bundles a multi-file description into one JSON document: external `$ref`s become components
 * (`#/components/schemas/<file name>`), internal ones stay references. Two different files with the same
 * name would be renamed silently by default; here that is an error, so component names stay stable.
 */
export async function bundle(file: string, options: BundleOptions = {}): Promise<unknown> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'pixgate-bundle-'));
  try {
    let config = REDOCLY_CONFIG;
    if (options.bareConfig) {
      config = path.join(workDir, 'redocly.yaml');
      writeFileSync(config, 'telemetry: off\n');
    }
    const output = path.join(workDir, 'bundle.json');
    const result = await runTool('redocly', [
      'bundle',
      file,
      '--output',
      output,
      '--config',
      config,
      '--lint-config',
      'error',
      '--component-renaming-conflicts-severity',
      'error',
    ]);
    if (result.code !== 0) {
      throw new Error(`redocly bundle ${relativeToRoot(file)} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.trim());
    }
    const bundled = JSON.parse(readFileSync(output, 'utf8')) as Json;
    restoreInternalRefs(parseYaml(readFileSync(file, 'utf8')) as Json, bundled);
    return bundled;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * Redocly replaces an internal reference of the root file by a copy of its target when that target was
 * itself an external reference: AsyncAPI's `operations.*.messages: [$ref: '#/channels/x/messages/y']`
 * comes out as inline copies of the messages, which AsyncAPI 3 does not mean (operation messages must
 * be references to the channel's messages). Every internal `$ref` written in the root file is put back
 * where the bundle holds an identical copy of its target.
 */
export function restoreInternalRefs(source: Json, bundled: Json): void {
  for (const { ref, at } of collectRefs(source)) {
    if (!ref.startsWith('#')) continue;
    const segments = pointerSegments(at);
    const key = segments.pop();
    if (key === undefined) continue;
    const parent = atPointer(bundled, toPointer(segments));
    const current = Array.isArray(parent) ? parent[Number(key)] : isObject(parent) ? parent[key] : undefined;
    if (isObject(current) && current['$ref'] === ref) continue;
    const target = atPointer(bundled, ref);
    if (current === undefined || !isDeepStrictEqual(current, target)) continue;
    if (Array.isArray(parent)) parent[Number(key)] = { $ref: ref };
    else if (isObject(parent)) parent[key] = { $ref: ref };
  }
}
