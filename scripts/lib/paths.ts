/**
 * Where the contract toolchain finds its inputs and writes its outputs. All paths are absolute, derived
 * from this file's location, so the scripts work from any working directory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Resolves a repository-relative path. */
export function fromRoot(...segments: string[]): string {
  return path.join(ROOT, ...segments);
}

/** Repository-relative form of an absolute path, with forward slashes (for messages). */
export function relativeToRoot(absolutePath: string): string {
  return path.relative(ROOT, absolutePath).split(path.sep).join('/');
}

export const MERCHANT_OPENAPI = fromRoot('openapi', 'openapi.yaml');
/** Written by the lead later: every script skips it, with a notice, while it does not exist. */
export const ADMIN_OPENAPI = fromRoot('openapi', 'admin', 'admin.yaml');
/** The merchant dashboard's own API (cookie session, CSRF), linted with its own rules. */
export const DASHBOARD_OPENAPI = fromRoot('openapi', 'dashboard', 'dashboard.yaml');
export const DASHBOARD_REDOCLY_CONFIG = fromRoot('openapi', 'dashboard', 'redocly.yaml');
/** The payment provider's API as PixGate calls it (API Pix 2.9.0 and Efí's send API, the subset used). */
export const UPSTREAM_OPENAPI = fromRoot('openapi', 'upstream', 'psp.yaml');
export const UPSTREAM_REDOCLY_CONFIG = fromRoot('openapi', 'upstream', 'redocly.yaml');
/** The back office has a public operation too (the console sign-in): linted with its own rules. */
export const ADMIN_REDOCLY_CONFIG = fromRoot('openapi', 'admin', 'redocly.yaml');
export const ASYNCAPI = fromRoot('asyncapi', 'asyncapi.yaml');
/** Webhook payload schemas, shared by the OpenAPI and the AsyncAPI documents. */
export const EVENT_SCHEMAS_DIR = fromRoot('openapi', 'components', 'schemas', 'events');
export const GENERATED_DIR = fromRoot('generated');
export const REDOCLY_CONFIG = fromRoot('redocly.yaml');

/**
 * The human-readable contract (outside the repository, shared by the team). Override with
 * PIXGATE_CONTRACT when it lives elsewhere.
 */
export const CONTRACT_FILE =
  process.env['PIXGATE_CONTRACT'] ?? path.resolve(ROOT, '..', 'shared', 'spec', 'pix-gateway-api.md');

export function adminPresent(): boolean {
  return existsSync(ADMIN_OPENAPI);
}

/** Executable JavaScript file behind a `node_modules/.bin` command, resolved through the package. */
export function binScript(packageDir: string, relativeScript: string): string {
  return fromRoot('node_modules', packageDir, relativeScript);
}
