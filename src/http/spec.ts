import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The bundled specs the server validates against, produced by `npm run generate`. Read once; each
 * validator gets its own deep copy because express-openapi-validator annotates the document it loads.
 */
const generatedDir = fileURLToPath(new URL('../../generated/', import.meta.url));

export type OpenApiDocument = { paths?: Record<string, Record<string, unknown> | undefined> } & Record<string, unknown>;

function load(name: string): OpenApiDocument {
  return JSON.parse(readFileSync(`${generatedDir}${name}`, 'utf8')) as OpenApiDocument;
}

let merchant: OpenApiDocument | undefined;
let admin: OpenApiDocument | undefined;
let dashboard: OpenApiDocument | undefined;

export function merchantSpec(): OpenApiDocument {
  merchant ??= load('openapi.json');
  return structuredClone(merchant);
}

export function adminSpec(): OpenApiDocument {
  admin ??= load('admin-openapi.json');
  return structuredClone(admin);
}

export function dashboardSpec(): OpenApiDocument {
  dashboard ??= load('dashboard-openapi.json');
  return structuredClone(dashboard);
}

/** The merchant docs (merchant API, dashboard API and webhooks), served on the merchant listener. */
export const generatedDocsDir = `${generatedDir}docs`;
/** The back-office reference, served on the internal listener only. */
export const generatedAdminDocsDir = `${generatedDir}admin-docs`;
