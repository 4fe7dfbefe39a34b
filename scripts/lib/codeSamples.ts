/**
 * `x-codeSamples` of every merchant operation (Redoc shows them beside the operation), made at
 * `npm run generate` into the bundled document only, from what the operation documents: its method, the
 * first server, its path and query parameters' `example`s and its first request-body example.
 *
 * - curl, Python (requests), PHP (Guzzle) and Java (java.net.http): `@readme/httpsnippet` from a HAR
 *   request built from those examples;
 * - TypeScript: a call of this repository's client (`pixgate/client`, src/sdk/client.ts), written from the
 *   same method, path and examples by `clientSample` below (one template for every operation; a test
 *   type-checks every sample against the client).
 *
 * An operation whose required parameter has no example, or whose method the client does not offer, fails
 * the generation: the samples never fall back to invented values.
 */
import { HTTPSnippet, type HarRequest } from '@readme/httpsnippet';
import { deref, isObject } from './json.ts';
import type { Json, JsonObject } from './json.ts';

/** The API key as every sample writes it: a placeholder to replace. */
export const API_KEY_PLACEHOLDER = '<PIXGATE_API_KEY>';

/** httpsnippet target and client of each sample, with the `lang`/`label` Redoc shows. */
const SNIPPETS = [
  { lang: 'Shell', label: 'curl', target: 'shell', client: 'curl' },
  { lang: 'Python', label: 'Python (requests)', target: 'python', client: 'requests' },
  { lang: 'PHP', label: 'PHP (Guzzle)', target: 'php', client: 'guzzle' },
  { lang: 'Java', label: 'Java (java.net.http)', target: 'java', client: 'nethttp' },
] as const;
export const CLIENT_SAMPLE = { lang: 'TypeScript', label: 'TypeScript (pixgate/client)' } as const;
/** The languages every operation gets, in the order Redoc shows them. */
export const SAMPLE_LANGUAGES = ['Shell', 'TypeScript', 'Python', 'PHP', 'Java'] as const;

const CLIENT_METHODS = new Set(['get', 'post', 'patch']);
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

interface Example {
  path: Record<string, Json>;
  query: Record<string, Json>;
  body: Json | undefined;
  /** The media types of the first 2xx answer. */
  answers: string[];
}

function parameterExample(document: Json, parameter: JsonObject): Json | undefined {
  if ('example' in parameter) return parameter['example'] ?? null;
  const examples = parameter['examples'];
  if (isObject(examples)) {
    const first = deref(document, Object.values(examples)[0]);
    if (isObject(first) && 'value' in first) return first['value'] ?? null;
  }
  const schema = deref(document, parameter['schema']);
  if (isObject(schema) && Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0] ?? null;
  return undefined;
}

function exampleOf(document: Json, operation: JsonObject, pathItem: JsonObject, where: string): Example {
  const example: Example = { path: {}, query: {}, body: undefined, answers: [] };
  const parameters = [...(Array.isArray(pathItem['parameters']) ? pathItem['parameters'] : []), ...(Array.isArray(operation['parameters']) ? operation['parameters'] : [])];
  for (const reference of parameters) {
    const parameter = deref(document, reference);
    if (!isObject(parameter) || typeof parameter['name'] !== 'string') continue;
    const value = parameterExample(document, parameter);
    if (value === undefined) {
      if (parameter['required'] === true) throw new Error(`${where}: required parameter ${parameter['name']} has no example for the code samples`);
      continue;
    }
    if (parameter['in'] === 'path') example.path[parameter['name']] = value;
    else if (parameter['in'] === 'query') example.query[parameter['name']] = value;
  }
  const requestBody = deref(document, operation['requestBody']);
  if (isObject(requestBody) && isObject(requestBody['content'])) {
    const media = requestBody['content']['application/json'];
    if (!isObject(media)) throw new Error(`${where}: the code samples know JSON request bodies only`);
    const examples = isObject(media['examples']) ? Object.values(media['examples']) : [];
    const first = examples.length > 0 ? deref(document, examples[0]) : undefined;
    if (isObject(first) && 'value' in first) example.body = first['value'] ?? null;
    else if ('example' in media) example.body = media['example'] ?? null;
    else throw new Error(`${where}: the request body has no example for the code samples`);
  }
  const responses = isObject(operation['responses']) ? operation['responses'] : {};
  const success = Object.keys(responses).filter((status) => /^2\d\d$/.test(status)).sort()[0];
  const answer = success === undefined ? undefined : deref(document, responses[success]);
  if (isObject(answer) && isObject(answer['content'])) example.answers = Object.keys(answer['content']);
  return example;
}

function serverUrl(document: JsonObject): string {
  const servers = document['servers'];
  const first = Array.isArray(servers) ? servers[0] : undefined;
  if (!isObject(first) || typeof first['url'] !== 'string') throw new Error('the merchant document has no server for the code samples');
  return first['url'].replace(/\/+$/, '');
}

function text(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function harRequest(baseUrl: string, method: string, path: string, example: Example): HarRequest {
  const url = baseUrl + path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(text(example.path[name] ?? '')));
  const headers = [{ name: 'Authorization', value: `Bearer ${API_KEY_PLACEHOLDER}` }];
  // HAR leaves postData out of requests without a body; httpsnippet's type asks for it anyway.
  const har = {
    method: method.toUpperCase(),
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers,
    queryString: Object.entries(example.query).map(([name, value]) => ({ name, value: text(value) })),
    headersSize: -1,
    bodySize: -1,
  } as unknown as HarRequest;
  if (example.body !== undefined) {
    headers.push({ name: 'Content-Type', value: 'application/json' });
    har.postData = { mimeType: 'application/json', text: JSON.stringify(example.body) };
  }
  return har;
}

/** A JSON value as a TypeScript expression (bare keys, single quotes), indented to sit at `indent`. */
function literal(value: Json, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((item) => `${inner}${literal(item, inner)},`).join('\n')}\n${indent}]`;
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name));
    return `{\n${entries.map(([name, item]) => `${inner}${key(name)}: ${literal(item, inner)},`).join('\n')}\n${indent}}`;
  }
  return typeof value === 'string' ? quote(value) : JSON.stringify(value);
}

function quote(textValue: string): string {
  return `'${JSON.stringify(textValue).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** The TypeScript sample: the same request through `pixgate/client`. */
export function clientSample(baseUrl: string, method: string, path: string, example: Example): string {
  const init: string[] = [];
  const params: string[] = [];
  if (Object.keys(example.path).length > 0) params.push(`path: ${literal(example.path, '    ')},`);
  if (Object.keys(example.query).length > 0) params.push(`query: ${literal(example.query, '    ')},`);
  if (params.length > 0) init.push(`  params: {\n    ${params.join('\n    ')}\n  },`);
  if (example.body !== undefined) init.push(`  body: ${literal(example.body, '  ')},`);
  const binary = example.answers.length > 0 && !example.answers.some((type) => /json/.test(type));
  if (binary) init.push(`  parseAs: 'arrayBuffer', // ${example.answers.join(' or ')}`);
  const call = `pixgate.${method.toUpperCase()}('${path}'${init.length > 0 ? `, {\n${init.join('\n')}\n}` : ''})`;
  return [
    "import { createClient, PixGateError } from 'pixgate/client';",
    '',
    `const pixgate = createClient({ baseUrl: '${baseUrl}', apiKey: '${API_KEY_PLACEHOLDER}' });`,
    '',
    'try {',
    `  const { data, response } = await ${call.split('\n').join('\n  ')};`,
    `  console.log(response.status, ${binary ? 'data.byteLength' : 'data'});`,
    '} catch (error) {',
    "  // Any answer outside 2xx: the contract's status and message.",
    '  if (error instanceof PixGateError) console.error(error.status, error.message);',
    '  else throw error;',
    '}',
    '',
  ].join('\n');
}

function snippet(har: HarRequest, target: string, client: string): string {
  const converted = new HTTPSnippet(har).convert(target as never, client, { indent: '  ' });
  const source = Array.isArray(converted) ? converted[0] : converted;
  if (typeof source !== 'string' || source === '') throw new Error(`httpsnippet wrote nothing for ${target}/${client}`);
  return `${source.trimEnd()}\n`;
}

/**
 * Adds `x-codeSamples` to every operation of a bundled merchant document (in place), in the order of
 * SAMPLE_LANGUAGES. Returns how many operations got them.
 */
export function addCodeSamples(document: JsonObject): number {
  const baseUrl = serverUrl(document);
  const paths = isObject(document['paths']) ? document['paths'] : {};
  let count = 0;
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!CLIENT_METHODS.has(method)) throw new Error(`${where}: pixgate/client has no ${method.toUpperCase()} (src/sdk/client.ts): add it before documenting the operation`);
      const example = exampleOf(document, operation, pathItem, where);
      const har = harRequest(baseUrl, method, path, example);
      const byLang = new Map<string, CodeSample>(SNIPPETS.map(({ lang, label, target, client }) => [lang, { lang, label, source: snippet(har, target, client) }]));
      byLang.set(CLIENT_SAMPLE.lang, { ...CLIENT_SAMPLE, source: clientSample(baseUrl, method, path, example) });
      operation['x-codeSamples'] = SAMPLE_LANGUAGES.map((lang) => byLang.get(lang) as CodeSample) as unknown as Json;
      count++;
    }
  }
  return count;
}
