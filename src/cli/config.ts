/**
 * Where the back office is and how to authenticate, from the environment only:
 * - base URL: `PIXGATE_ADMIN_URL`, else `http://127.0.0.1:${ADMIN_PORT:-3001}` (the server's internal listener,
 *   where the back office lives; the merchant port never serves it);
 * - operator token: `ADMIN_TOKEN`, else the file the server generates when ADMIN_TOKEN is unset,
 *   `<PIXGATE_DATA_DIR>/../admin-token` (`.data/admin-token` with the default data directory), relative
 *   to the working directory.
 * The token is a root credential: it is never printed, not even in error messages.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './errors.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** The server's default ADMIN_PORT (its internal listener). */
const DEFAULT_ADMIN_PORT = '3001';
/** The server's default PIXGATE_DATA_DIR is `.data/pglite`; the token sits beside it. */
const DEFAULT_DATA_DIR = path.join('.data', 'pglite');

export function adminBaseUrl(env: Env): string {
  const explicit = env['PIXGATE_ADMIN_URL'];
  const raw = explicit !== undefined && explicit !== '' ? explicit : `http://127.0.0.1:${env['ADMIN_PORT'] || DEFAULT_ADMIN_PORT}`;
  return raw.replace(/\/+$/, '');
}

/** The file a server without ADMIN_TOKEN writes its generated token to. */
export function tokenFilePath(env: Env, cwd: string): string {
  const dataDir = env['PIXGATE_DATA_DIR'] || DEFAULT_DATA_DIR;
  return path.resolve(cwd, dataDir, '..', 'admin-token');
}

export function operatorToken(env: Env, cwd: string): string {
  const fromEnv = env['ADMIN_TOKEN']?.trim();
  if (fromEnv) return fromEnv;
  const file = tokenFilePath(env, cwd);
  let fromFile: string;
  try {
    fromFile = readFileSync(file, 'utf8').trim();
  } catch {
    throw new CliError(
      `No operator token: set ADMIN_TOKEN, or run where the server keeps its token file (looked for ${file}; ` +
        'the server writes it at its first start when ADMIN_TOKEN is unset).',
    );
  }
  if (fromFile === '') throw new CliError(`No operator token: ${file} is empty.`);
  return fromFile;
}
