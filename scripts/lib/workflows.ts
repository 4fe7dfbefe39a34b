/**
 * The contract workflows (workflows/pixgate.arazzo.yaml) run by `redocly respect`: shared by
 * `npm run test:workflows` and the contract tests.
 */
import { fromRoot } from './paths.ts';
import { runTool, type RunResult } from './run.ts';

export const WORKFLOWS_FILE = fromRoot('workflows', 'pixgate.arazzo.yaml');
/** The workflows that hold whatever the server remembers: they also run against the mock. */
export const STATELESS_WORKFLOWS = ['charge-created-and-read', 'account-reads'];

export interface RespectOptions {
  /** Source description name → base URL (`merchant`, `backoffice`). */
  servers: Record<string, string>;
  inputs: Record<string, string>;
  /** Only these workflows (default: all). */
  workflows?: string[];
  /** Where respect writes its JSON report. */
  jsonReport?: string;
  verbose?: boolean;
}

/** `a=1,b=2`: respect's --input and --server syntax, which cannot carry ',' or '=' in a value. */
function pairs(values: Record<string, string>): string {
  for (const [name, value] of Object.entries(values)) {
    if (/[,=]/.test(value)) throw new Error(`${name} holds ',' or '=': respect cannot take it`);
  }
  return Object.entries(values)
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
}

export function runRespect(options: RespectOptions): Promise<RunResult> {
  return runTool('redocly', [
    'respect',
    WORKFLOWS_FILE,
    ...(options.workflows ?? []).flatMap((id) => ['--workflow', id]),
    '--server',
    pairs(options.servers),
    '--input',
    pairs(options.inputs),
    ...(options.jsonReport ? ['--json-output', options.jsonReport] : []),
    ...(options.verbose ? ['--verbose'] : []),
  ]);
}
