/**
 * Finds every example in a bundled OpenAPI or AsyncAPI document together with the schema it must satisfy,
 * and validates them with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
 *
 * The walk is structural and never follows `$ref`s, so every example is visited once, where it is written:
 * an example stored in `components/examples` is checked at each media type that references it, against
 * that media type's schema. Example values are never walked into (a payload may contain a key called
 * `schema`).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { deref, isObject, toPointer } from './json.ts';
import type { Json, JsonObject } from './json.ts';

export interface ExampleSite {
  /** Where the example is written (pointer in the bundled document, plus its name). */
  where: string;
  /** Pointer of the schema the example must satisfy. */
  schemaPointer: string;
  value: Json;
}

type Path = (string | number)[];

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_SINGLES = [
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** Schema-level `examples` (array) and deprecated `example`, in a schema and all its subschemas. */
function walkSchema(schema: Json | undefined, path: Path, sites: ExampleSite[]): void {
  if (!isObject(schema)) return;
  const pointer = toPointer(path);
  const examples = schema['examples'];
  if (Array.isArray(examples)) {
    examples.forEach((value, i) => sites.push({ where: `${pointer}/examples/${i}`, schemaPointer: pointer, value }));
  }
  if ('example' in schema) sites.push({ where: `${pointer}/example`, schemaPointer: pointer, value: schema['example'] ?? null });
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map)) for (const [name, sub] of Object.entries(map)) walkSchema(sub, [...path, key, name], sites);
  }
  for (const key of SCHEMA_SINGLES) {
    const sub = schema[key];
    if (Array.isArray(sub)) sub.forEach((s, i) => walkSchema(s, [...path, key, i], sites));
    else walkSchema(sub, [...path, key], sites);
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((s, i) => walkSchema(s, [...path, key, i], sites));
  }
}

/**
 * Media types, parameters and headers: objects with a `schema` and `example`/`examples` (a map of Example
 * objects). Their schemas are walked for schema-level examples; `components/schemas` too.
 */
function walkOpenApi(document: Json, node: Json, path: Path, sites: ExampleSite[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walkOpenApi(document, item, [...path, i], sites));
    return;
  }
  if (!isObject(node)) return;
  if ('schema' in node) {
    const schemaPointer = toPointer([...path, 'schema']);
    const pointer = toPointer(path);
    if ('example' in node) sites.push({ where: `${pointer}/example`, schemaPointer, value: node['example'] ?? null });
    const examples = node['examples'];
    if (isObject(examples)) {
      for (const [name, raw] of Object.entries(examples)) {
        const example = deref(document, raw);
        if (isObject(example) && 'value' in example) {
          sites.push({ where: `${pointer}/examples/${name}`, schemaPointer, value: example['value'] ?? null });
        }
      }
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key === '$ref') continue;
    if (key === 'schema') walkSchema(value, [...path, key], sites);
    else if (key === 'schemas' && path.length === 1 && path[0] === 'components' && isObject(value)) {
      for (const [name, schema] of Object.entries(value)) walkSchema(schema, [...path, key, name], sites);
    } else walkOpenApi(document, value, [...path, key], sites);
  }
}

export function openApiExamples(document: Json): ExampleSite[] {
  const sites: ExampleSite[] = [];
  walkOpenApi(document, document, [], sites);
  return sites;
}

/** AsyncAPI 3: a payload/headers schema may be a Multi Format Schema object (`{ schemaFormat, schema }`). */
function asyncSchemaPath(message: JsonObject, key: 'payload' | 'headers', path: Path): Path | undefined {
  const value = message[key];
  if (!isObject(value)) return undefined;
  return 'schemaFormat' in value && 'schema' in value ? [...path, key, 'schema'] : [...path, key];
}

function walkMessage(document: Json, message: JsonObject, path: Path, sites: ExampleSite[]): void {
  const payloadPath = asyncSchemaPath(message, 'payload', path);
  const headersPath = asyncSchemaPath(message, 'headers', path);
  if (payloadPath) walkSchema(atPath(document, payloadPath), payloadPath, sites);
  if (headersPath) walkSchema(atPath(document, headersPath), headersPath, sites);
  const examples = message['examples'];
  if (!Array.isArray(examples)) return;
  examples.forEach((example, i) => {
    if (!isObject(example)) return;
    const label = typeof example['name'] === 'string' ? example['name'] : String(i);
    const where = `${toPointer([...path, 'examples', i])} (${label})`;
    if ('payload' in example && payloadPath) {
      sites.push({ where: `${where} payload`, schemaPointer: toPointer(payloadPath), value: example['payload'] ?? null });
    }
    if ('headers' in example && headersPath) {
      sites.push({ where: `${where} headers`, schemaPointer: toPointer(headersPath), value: example['headers'] ?? null });
    }
  });
}

function atPath(document: Json, path: Path): Json | undefined {
  let node: Json | undefined = document;
  for (const segment of path) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[String(segment)];
    else return undefined;
  }
  return node;
}

export function asyncApiExamples(document: Json): ExampleSite[] {
  const sites: ExampleSite[] = [];
  if (!isObject(document)) return sites;
  const components = document['components'];
  if (isObject(components)) {
    const schemas = components['schemas'];
    if (isObject(schemas)) {
      for (const [name, schema] of Object.entries(schemas)) {
        // Multi Format Schema objects wrap the JSON Schema in `schema`.
        const inner = isObject(schema) && 'schemaFormat' in schema && 'schema' in schema ? ['schema'] : [];
        walkSchema(atPath(document, ['components', 'schemas', name, ...inner]), ['components', 'schemas', name, ...inner], sites);
      }
    }
    const messages = components['messages'];
    if (isObject(messages)) {
      for (const [name, message] of Object.entries(messages)) {
        if (isObject(message) && !('$ref' in message)) walkMessage(document, message, ['components', 'messages', name], sites);
      }
    }
  }
  const channels = document['channels'];
  if (isObject(channels)) {
    for (const [channelName, channel] of Object.entries(channels)) {
      const messages = isObject(channel) ? channel['messages'] : undefined;
      if (!isObject(messages)) continue;
      for (const [name, message] of Object.entries(messages)) {
        if (isObject(message) && !('$ref' in message)) {
          walkMessage(document, message, ['channels', channelName, 'messages', name], sites);
        }
      }
    }
  }
  return sites;
}

// ajv-formats is CommonJS; its default export arrives wrapped in some module interop modes.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

export interface ExampleValidator {
  validate(site: ExampleSite): string | undefined;
}

/**
 * Validator over one whole document: the document is registered under a URN and each example's schema is
 * compiled by pointer, so internal `#/components/...` references resolve. Strict mode is off because
 * OpenAPI/AsyncAPI schemas carry keywords Ajv does not know (`discriminator`, `xml`, `externalDocs`).
 */
export function exampleValidator(document: Json, name: string): ExampleValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  // OpenAPI's numeric formats, which ajv-formats does not define.
  const int32 = (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31;
  ajv.addFormat('int32', { type: 'number', validate: int32 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  const base = `urn:pixgate:${name}`;
  // AsyncAPI's root `id` (the application URN) reads as Ajv's removed draft-04 `id` keyword: drop it from
  // the registered copy. Pointers are unaffected.
  const registered = isObject(document) ? { ...document } : document;
  if (isObject(registered)) delete registered['id'];
  ajv.addSchema(registered as object, base);
  const compiled = new Map<string, ValidateFunction>();
  return {
    validate(site: ExampleSite): string | undefined {
      let check = compiled.get(site.schemaPointer);
      if (!check) {
        const found = ajv.getSchema(`${base}${site.schemaPointer}`);
        if (!found) return `schema ${site.schemaPointer} not found`;
        check = found;
        compiled.set(site.schemaPointer, check);
      }
      if (check(site.value)) return undefined;
      return (check.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('; ');
    },
  };
}
