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

/** The bundled file each copy handed out was read from (src/http/validator.ts shares one validator per file). */
const bundledFrom = new WeakMap<OpenApiDocument, string>();

/** The generated file `document` is a copy of (`openapi.json`, …), or undefined for a document made elsewhere. */
export function bundledDocumentName(document: OpenApiDocument): string | undefined {
  return bundledFrom.get(document);
}

function copyOf(document: OpenApiDocument, name: string): OpenApiDocument {
  const copy = structuredClone(document);
  bundledFrom.set(copy, name);
  return copy;
}

let merchant: OpenApiDocument | undefined;
let admin: OpenApiDocument | undefined;
let dashboard: OpenApiDocument | undefined;

export function merchantSpec(): OpenApiDocument {
  merchant ??= load('openapi.json');
  return copyOf(merchant, 'openapi.json');
}

export function adminSpec(): OpenApiDocument {
  admin ??= load('admin-openapi.json');
  return copyOf(admin, 'admin-openapi.json');
}

export function dashboardSpec(): OpenApiDocument {
  dashboard ??= load('dashboard-openapi.json');
  return copyOf(dashboard, 'dashboard-openapi.json');
}

/** The merchant docs (merchant API, dashboard API and webhooks), served on the merchant listener. */
export const generatedDocsDir = `${generatedDir}docs`;
/** The back-office reference, served on the internal listener only. */
export const generatedAdminDocsDir = `${generatedDir}admin-docs`;
