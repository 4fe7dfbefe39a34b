/**
 * Validates asyncapi/asyncapi.yaml offline with @asyncapi/parser (the AsyncAPI 3.0 JSON Schema, the
 * parser's Spectral rules and every $ref, the split message files and the shared schemas under
 * openapi/components/schemas/ included).
 *
 * Usage: npx node scripts/validate-asyncapi.ts [path/to/asyncapi.yaml]
 * Exit code 0 when the document parses with no diagnostic left after the filter below, 1 otherwise.
 *
 * Every severity fails the run (error, warning, info and hint), except the rules listed in IGNORED_RULES,
 * each with the reason it does not apply to this document.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser, type Diagnostic } from '@asyncapi/parser';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_DOCUMENT = path.join(ROOT, 'asyncapi', 'asyncapi.yaml');

/** Rules whose diagnostics are shown but do not fail the run, and why. */
const IGNORED_RULES: Readonly<Record<string, string>> = {
  // Info-level: says a newer AsyncAPI version (3.1.0) exists. The contract pins `asyncapi: 3.0.0`
  // (toolchain and renderers checked against it), so this is a deliberate choice, not a defect.
  'asyncapi-latest-version': 'the document deliberately targets AsyncAPI 3.0.0',
};

const SEVERITY_NAMES = ['error', 'warning', 'info', 'hint'] as const;

function severityName(severity: number): string {
  return SEVERITY_NAMES[severity] ?? `severity ${severity}`;
}

/** One readable line per diagnostic: file:line:column severity rule message (at JSON path). */
function formatDiagnostic(diagnostic: Diagnostic, documentPath: string): string {
  const file = path.relative(process.cwd(), diagnostic.source ?? documentPath);
  const { line, character } = diagnostic.range.start;
  const where = diagnostic.path.length > 0 ? ` (at ${diagnostic.path.join('.')})` : '';
  return `${file}:${line + 1}:${character + 1} ${severityName(diagnostic.severity)} ` +
    `[${String(diagnostic.code)}] ${diagnostic.message}${where}`;
}

export interface ValidationResult {
  ok: boolean;
  /** Readable diagnostics, ignored ones included (prefixed `ignored:`). */
  lines: string[];
  ignored: number;
}

export async function validateAsyncApi(documentPath: string): Promise<ValidationResult> {
  const source = await readFile(documentPath, 'utf8');
  const parser = new Parser();
  // `source` makes relative $refs resolve against the document's folder; no http(s) $ref exists, so
  // nothing is fetched over the network.
  const { document, diagnostics } = await parser.parse(source, { source: documentPath });

  const lines: string[] = [];
  let failures = 0;
  let ignored = 0;
  for (const diagnostic of diagnostics) {
    const reason = IGNORED_RULES[String(diagnostic.code)];
    if (reason !== undefined) {
      ignored += 1;
      lines.push(`ignored: ${formatDiagnostic(diagnostic, documentPath)} (${reason})`);
      continue;
    }
    failures += 1;
    lines.push(formatDiagnostic(diagnostic, documentPath));
  }
  if (document === undefined) {
    failures += 1;
    lines.push(`${path.relative(process.cwd(), documentPath)}: the parser produced no document (see above)`);
  }
  return { ok: failures === 0, lines, ignored };
}

async function main(): Promise<void> {
  const documentPath = path.resolve(process.argv[2] ?? DEFAULT_DOCUMENT);
  const { ok, lines, ignored } = await validateAsyncApi(documentPath);
  for (const line of lines) console.log(line);
  const name = path.relative(process.cwd(), documentPath);
  if (ok) {
    console.log(`${name}: valid AsyncAPI 3 document, no diagnostics (${ignored} ignored, explained above).`);
  } else {
    console.error(`${name}: validation failed.`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
