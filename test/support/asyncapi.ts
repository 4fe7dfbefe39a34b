/**
 * The webhook contract as tests use it: every shared schema registered in Ajv 2020 under its file URL (so
 * relative `$ref`s resolve as Redocly and the AsyncAPI parser resolve them) and the AsyncAPI messages.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ASYNCAPI_PATH = path.join(ROOT, 'asyncapi', 'asyncapi.yaml');
export const SCHEMAS_DIR = path.join(ROOT, 'openapi', 'components', 'schemas');
export const EVENTS_DIR = path.join(SCHEMAS_DIR, 'events');

// ajv-formats is CommonJS: imported from ESM, its plugin is the `default` property of module.exports
// (module.exports is the plugin too, so this holds whichever interop the test runner applies).
const addFormats = addFormatsModule.default;

type Json = Record<string, unknown>;
export interface Example {
  name: string;
  headers: Record<string, string>;
  payload: Json;
}
export interface RawMessage {
  name: string;
  'x-category': string;
  'x-legacy-names'?: string[];
  headers: Json;
  payload: { $ref: string };
  examples: Example[];
}
export interface LoadedMessage {
  file: string;
  raw: RawMessage;
  payloadSchemaUrl: string;
}


export function readYaml(file: string): unknown {
  return parseYaml(readFileSync(file, 'utf8'));
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.yaml'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every key starting with `x-` (specification extensions), so Ajv's strict mode accepts them. */
function extensionKeys(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) extensionKeys(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeys(child, found);
    }
  }
  return found;
}

/**
 * Ajv 2020 with every shared schema registered under its file URL, so relative `$ref`s between files
 * (events/X.yaml -> ./EventBase.yaml -> ../Transaction.yaml) resolve exactly as Redocly and the AsyncAPI
 * parser resolve them. OpenAPI 3.1 annotation keywords are declared so strict mode still catches typos.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strictTypes: false, strictTuples: false });
  addFormats(ajv);
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
  const files = yamlFilesUnder(SCHEMAS_DIR);
  const schemas = files.map((file) => ({ file, schema: readYaml(file) as Json }));
  for (const key of extensionKeys(schemas.map(({ schema }) => schema))) ajv.addKeyword(key);
  for (const { file, schema } of schemas) ajv.addSchema(schema, pathToFileURL(file).href);
  return ajv;
}

export function loadMessages(): Map<string, LoadedMessage> {
  const root = readYaml(ASYNCAPI_PATH) as {
    channels: { merchantWebhook: { messages: Record<string, { $ref: string }> } };
  };
  const messages = new Map<string, LoadedMessage>();
  for (const ref of Object.values(root.channels.merchantWebhook.messages)) {
    const file = path.resolve(path.dirname(ASYNCAPI_PATH), ref.$ref);
    const raw = readYaml(file) as RawMessage;
    const payloadSchemaUrl = pathToFileURL(path.resolve(path.dirname(file), raw.payload.$ref)).href;
    messages.set(raw.name, { file, raw, payloadSchemaUrl });
  }
  return messages;
}

export function errorsOf(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
}


/** Validates an event payload as delivered against its message's payload schema; returns the errors. */
export function eventPayloadChecker(): (event: string, payload: unknown) => string {
  const ajv = createAjv();
  const messages = loadMessages();
  return (event, payload) => {
    const message = messages.get(event);
    if (!message) return `no AsyncAPI message named ${event}`;
    const validate = ajv.getSchema(message.payloadSchemaUrl);
    if (!validate) return `payload schema of ${event} not loaded`;
    return validate(payload) ? '' : errorsOf(validate);
  };
}
