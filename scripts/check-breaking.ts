/**
 * `npm run check:breaking`: the breaking-change gate of /v1. Compares the working documents (the merchant
 * OpenAPI, webhooks included, and the webhooks' AsyncAPI, bundled from openapi/ and asyncapi/) with the
 * published baseline in contract/baseline/ through `redocly diff` (rules: contract/redocly-diff.yaml), fails
 * on any breaking (`major`) change, and lists the additive ones. An operation that the baseline does not have
 * must carry `x-pixgate-since` (the date it was added), as the contract's Versioning section says.
 *
 *   npm run check:breaking                          the gate (CI)
 *   npm run check:breaking -- --publish             makes the working documents the new baseline (a designer,
 *                                                   when a contract change is released; see the README)
 *   npm run check:breaking -- --publish --date 2026-12-01
 *
 * `--publish` refuses when the gate fails, and when the documents add something (a `minor` change) while the
 * Versioning section of openapi/openapi.yaml (info.description) has no new dated entry: its list must differ
 * from the baseline's and its newest entry be dated on or after the previous publication. Description-only
 * (`patch`) changes and added vendor extensions alone (`x-codeSamples`) publish freely.
 *
 * `--skip-rule <diff rule>` (repeatable) skips a rule for this run: for a change decided on purpose, such as a
 * response enum that grows by design (`enum-values-added`).
 *
 * For tests and experiments: `--openapi FILE` / `--asyncapi FILE` compare those bundled documents instead of
 * the sources, `--baseline DIR` uses another baseline folder.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isObject, type Json } from './lib/json.ts';
import { listOperations } from './lib/openapi.ts';
import { ASYNCAPI, MERCHANT_OPENAPI, fromRoot, relativeToRoot } from './lib/paths.ts';
import { bundle } from './lib/redocly.ts';
import { runTool } from './lib/run.ts';
import { latestVersioningDate, versioningSection } from './lib/versioning.ts';

const DIFF_CONFIG = fromRoot('contract', 'redocly-diff.yaml');
const PUBLISHED_FILE = 'published.json';

interface Published {
  /** The day the baseline was published (YYYY-MM-DD, UTC). */
  published: string;
  /** What a person should know about it. */
  note: string;
}

interface DiffChange {
  path: string;
  kind: string;
  impact: 'major' | 'minor' | 'patch';
  property?: string;
  verdicts?: Array<{ ruleId: string; message: string }>;
}

interface DiffReport {
  summary: { major: number; minor: number; patch: number };
  changes: DiffChange[];
}

interface Compared {
  name: string;
  report: DiffReport;
}

const { values: options } = parseArgs({
  options: {
    publish: { type: 'boolean', default: false },
    date: { type: 'string' },
    openapi: { type: 'string' },
    asyncapi: { type: 'string' },
    baseline: { type: 'string', default: fromRoot('contract', 'baseline') },
    'skip-rule': { type: 'string', multiple: true, default: [] },
  },
});
const baselineDir = path.resolve(options.baseline);

function readJson(file: string): Json {
  return JSON.parse(readFileSync(file, 'utf8')) as Json;
}

/** `#/paths/~1v1~1pix/post/requestBody/...` → `POST /v1/pix requestBody/...`, for people. */
function describePath(pointer: string): string {
  const segments = pointer.replace(/^#\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if ((segments[0] === 'paths' || segments[0] === 'webhooks') && segments.length >= 3) {
    const [kind, route, method, ...rest] = segments;
    const where = kind === 'webhooks' ? `webhook ${route}` : `${String(method).toUpperCase()} ${route}`;
    return [kind === 'webhooks' ? `${where} ${String(method).toUpperCase()}` : where, rest.join('/')].filter(Boolean).join(' ');
  }
  return segments.join('/');
}

function changeLine(change: DiffChange): string {
  const what = `${describePath(change.path)}${change.property ? ` · ${change.property}` : ''}`;
  const why = (change.verdicts ?? []).map((v) => `${v.message} (${v.ruleId})`).join('; ');
  return `  ${change.impact.padEnd(5)}  ${change.kind.padEnd(8)}  ${what}${why ? `\n           ${why}` : ''}`;
}

async function diff(name: string, base: string, revision: string): Promise<Compared> {
  const skipped = options['skip-rule'].flatMap((rule) => ['--skip-rule', rule]);
  const result = await runTool('redocly', ['diff', base, revision, '--config', DIFF_CONFIG, '--format', 'json', '--fail-on', 'none', ...skipped]);
  const start = result.stdout.indexOf('{');
  if (result.code !== 0 || start < 0) {
    throw new Error(`redocly diff ${name} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`.trim());
  }
  return { name, report: JSON.parse(result.stdout.slice(start)) as DiffReport };
}

/** Operations of the working document that the baseline lacks and that carry no `x-pixgate-since`. */
function undatedNewOperations(baseline: Json, working: Json): string[] {
  const known = new Set(listOperations(baseline).map((op) => `${op.method} ${op.path}`));
  return listOperations(working)
    .filter((op) => !known.has(`${op.method} ${op.path}`))
    .filter((op) => typeof op.operation['x-pixgate-since'] !== 'string')
    .map((op) => `${op.method} ${op.path}`);
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

async function main(): Promise<number> {
  const published = readJson(path.join(baselineDir, PUBLISHED_FILE)) as unknown as Published;
  const work = mkdtempSync(path.join(os.tmpdir(), 'pixgate-check-breaking-'));
  try {
    const openapiFile = options.openapi ? path.resolve(options.openapi) : path.join(work, 'openapi.json');
    const asyncapiFile = options.asyncapi ? path.resolve(options.asyncapi) : path.join(work, 'asyncapi.json');
    if (!options.openapi) writeFileSync(openapiFile, JSON.stringify(await bundle(MERCHANT_OPENAPI), null, 2));
    if (!options.asyncapi) writeFileSync(asyncapiFile, JSON.stringify(await bundle(ASYNCAPI, { bareConfig: true }), null, 2));
    const baseOpenapi = path.join(baselineDir, 'openapi.json');
    const baseAsyncapi = path.join(baselineDir, 'asyncapi.json');

    const compared = await Promise.all([
      diff('merchant API (OpenAPI, webhooks included)', baseOpenapi, openapiFile),
      diff('webhooks (AsyncAPI)', baseAsyncapi, asyncapiFile),
    ]);
    console.log(`check:breaking: the working documents against the /v1 baseline published ${published.published} (${relativeToRoot(baselineDir)}/)`);
    let major = 0;
    let minor = 0;
    /** Additive changes to the contract itself: not an added vendor extension (`x-codeSamples`, …) alone. */
    let contractMinor = 0;
    for (const { name, report } of compared) {
      const { summary, changes } = report;
      major += summary.major;
      minor += summary.minor;
      contractMinor += changes.filter((c) => c.impact === 'minor' && !/\/x-[^/]*$/.test(c.path)).length;
      console.log(`\n${name}: ${summary.major} breaking, ${summary.minor} additive, ${summary.patch} without effect`);
      for (const impact of ['major', 'minor', 'patch'] as const) {
        for (const change of changes.filter((c) => c.impact === impact)) console.log(changeLine(change));
      }
    }

    const workingOpenapi = readJson(openapiFile);
    const baselineOpenapi = readJson(baseOpenapi);
    const undated = undatedNewOperations(baselineOpenapi, workingOpenapi);
    for (const operation of undated) console.log(`\n${operation}: a new operation without x-pixgate-since (the date it was added)`);

    if (major > 0 || undated.length > 0) {
      console.error(
        `\ncheck:breaking: FAILED: ${major} breaking change(s)${undated.length ? `, ${undated.length} undated new operation(s)` : ''}. ` +
          '/v1 takes additive changes only: make the change optional or additive, or keep the old shape beside the new one.',
      );
      return 1;
    }
    console.log(`\ncheck:breaking: passed (${minor} additive change(s), none breaking).`);
    if (!options.publish) return 0;

    // Publishing: additive changes need their dated entry in the Versioning section.
    const date = options.date ?? today();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`--date must be YYYY-MM-DD, got '${date}'`);
    const describe = (doc: Json) => (isObject(doc) && isObject(doc['info']) ? String(doc['info']['description'] ?? '') : '');
    const section = versioningSection(describe(workingOpenapi));
    const newest = latestVersioningDate(section);
    if (contractMinor > 0) {
      const unchanged = section === versioningSection(describe(baselineOpenapi));
      if (unchanged || !newest || newest < published.published) {
        console.error(
          `\ncheck:breaking: not published: ${contractMinor} additive change(s) since ${published.published}, but the Versioning section of ` +
            `openapi/openapi.yaml ${unchanged ? 'is unchanged' : `has no entry dated on or after ${published.published}`}. ` +
            'Add a dated entry (`- YYYY-MM-DD: what changed (additive)`) at the top of its list, then publish again.',
        );
        return 1;
      }
    }
    mkdirSync(baselineDir, { recursive: true });
    copyFileSync(openapiFile, baseOpenapi);
    copyFileSync(asyncapiFile, baseAsyncapi);
    const record: Published = { published: date, note: published.note };
    writeFileSync(path.join(baselineDir, PUBLISHED_FILE), `${JSON.stringify(record, null, 2)}\n`);
    console.log(`check:breaking: published the working documents as the /v1 baseline of ${date} in ${relativeToRoot(baselineDir)}/ (commit them).`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const code = await main().catch((error: unknown) => {
  console.error(`check:breaking: ${error instanceof Error ? error.message : String(error)}`);
  return 2;
});
process.exit(code);
