import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { authOf, fillPath, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { ADMIN_TOKEN, useGateway } from '../support/gateway.ts';

/**
 * Defect 11 of issue 22: what people read in the dashboard and the console. Every operation of the
 * dashboard's and the back office's OpenAPI documents is sent bad bodies, bad queries and bad path
 * parameters derived from its schemas (each field of the wrong type, too long, too short, off its
 * pattern, its format or its list, below its minimum or above its maximum, missing, unknown); every 400
 * answer must be Portuguese, name fields by their labels (never by an API field name) and carry the
 * field in `field` where it is about one.
 */

const gateway = useGateway();

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  examples?: unknown[];
  example?: unknown;
};
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema }> };
}
interface Document {
  paths: Record<string, Record<string, unknown>>;
}

/** A path item's operations, and the parameters it gives them all. */
function operationsOf(item: Record<string, unknown>): { shared: Parameter[]; operations: [string, Operation][] } {
  const operations = Object.entries(item).filter(
    (entry): entry is [string, Operation] => entry[0] !== 'parameters' && typeof entry[1] === 'object' && entry[1] !== null && 'operationId' in entry[1],
  );
  return { shared: (item.parameters as Parameter[] | undefined) ?? [], operations };
}

function load(file: string): Document {
  return JSON.parse(readFileSync(new URL(`../../generated/${file}`, import.meta.url), 'utf8')) as Document;
}

function resolver(document: Document) {
  const deref = <T>(node: T): T => {
    let current = node as T & { $ref?: string };
    while (current && typeof current.$ref === 'string') {
      current = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], document) as T & { $ref?: string };
    }
    return current;
  };
  /** A schema with its `$ref`s and `allOf`s merged into one. */
  const flat = (node: Schema | undefined): Schema => {
    if (!node) return {};
    const schema = deref(node);
    if (!schema.allOf) return schema;
    const merged: Schema = { ...schema, allOf: undefined };
    for (const part of schema.allOf.map(flat)) {
      Object.assign(merged, { ...part, ...merged, properties: { ...part.properties, ...merged.properties }, required: [...(part.required ?? []), ...(merged.required ?? [])] });
    }
    return merged;
  };
  return { deref, flat };
}

/** Every field name the document's requests use (bodies, nested ones too, queries, paths). */
function fieldNames(document: Document): Set<string> {
  const { deref, flat } = resolver(document);
  const names = new Set<string>();
  const visit = (node: Schema | undefined, depth: number) => {
    const schema = flat(node);
    if (depth > 6) return;
    for (const alternative of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) visit(alternative, depth + 1);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      names.add(name);
      visit(property, depth + 1);
    }
    if (schema.items) visit(schema.items, depth + 1);
  };
  for (const item of Object.values(document.paths)) {
    const { shared, operations } = operationsOf(item);
    for (const [, operation] of operations) {
      for (const parameter of [...shared, ...(operation.parameters ?? [])].map(deref)) names.add(parameter.name);
      const body = operation.requestBody ? deref(operation.requestBody) : undefined;
      visit(body?.content?.['application/json']?.schema, 0);
    }
  }
  return names;
}

/** Words of Ajv's and of the back office's English that never occur in Portuguese text. */
const ENGLISH =
  /(?<![\p{L}\p{N}])(must|have|has|than|characters|the|invalid|request|required|property|properties|match|pattern|format|should|equal|allowed|values|fewer|items|additional|unknown|parameter|query|body|string|integer|boolean|array|object|not|is|be|of|and|with|found|only|NOT)(?![\p{L}\p{N}])/u;

const exampleOf = (schema: Schema): unknown => schema.examples?.[0] ?? schema.example ?? schema.enum?.[0];

/** A value of the schema's shape (its example; else a plausible one). */
function goodValue(schema: Schema): unknown {
  const example = exampleOf(schema);
  if (example !== undefined) return example;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return 'texto';
}

/** Bad values of one field, each wrong in one way its schema says. */
function badValues(schema: Schema): unknown[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const bad: unknown[] = [];
  if (type === 'string' || schema.pattern || schema.format || schema.maxLength !== undefined) {
    bad.push(12345);
    if (schema.maxLength !== undefined) bad.push('a'.repeat(schema.maxLength + 1));
    if (schema.minLength !== undefined && schema.minLength > 1) bad.push('a');
    if (schema.pattern || schema.format) bad.push('!! não serve !!');
    if (schema.enum) bad.push('opção-que-não-existe');
    if (schema.minLength === 1) bad.push('');
  } else if (type === 'integer' || type === 'number') {
    bad.push('cem', 1.5);
    if (schema.minimum !== undefined) bad.push(schema.minimum - 1);
    if (schema.maximum !== undefined) bad.push(schema.maximum + 1);
  } else if (type === 'boolean') {
    bad.push('sim');
  } else if (type === 'array') {
    bad.push('um texto', [12345]);
    if (schema.maxItems !== undefined) bad.push(Array.from({ length: schema.maxItems + 1 }, (_v, index) => `item-${index}`));
    if (schema.minItems !== undefined && schema.minItems > 0) bad.push([]);
  } else if (schema.enum) {
    bad.push('opção-que-não-existe');
  } else {
    bad.push(12345, 'texto');
  }
  return bad;
}

/** Bad values of a query or path parameter (sent as text). */
function badTexts(schema: Schema): string[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const bad = ['!! não serve !!'];
  if (type === 'integer' || type === 'number') bad.push('cem', '1.5');
  if (schema.minimum !== undefined) bad.push(String(schema.minimum - 1));
  if (schema.maximum !== undefined) bad.push(String(schema.maximum + 1));
  if (schema.maxLength !== undefined) bad.push('a'.repeat(schema.maxLength + 1));
  if (type === 'boolean') bad.push('talvez');
  return bad;
}

interface Finding {
  operationId: string;
  sent: unknown;
  status: number;
  body: unknown;
}

interface Caller {
  auth: { cookie?: string | undefined; csrf?: string | undefined; authorization?: string | undefined };
}

async function send(method: string, path: string, query: Record<string, string> | undefined, body: unknown, caller: Caller): Promise<{ status: number; body: unknown }> {
  if (caller.auth.authorization === undefined) return rawCall(gateway, { method, path, ...(query ? { query } : {}), ...(body === undefined ? {} : { body }) }, caller.auth);
  const search = query ? `?${new URLSearchParams(query).toString()}` : '';
  const response = await fetch(`${gateway.adminBaseUrl}${path}${search}`, {
    method,
    headers: { authorization: caller.auth.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

/** Walks every operation of `file` with bad input; returns every 400 answer. */
async function walk(file: string, caller: Caller): Promise<Finding[]> {
  const document = load(file);
  const { deref, flat } = resolver(document);
  const findings: Finding[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    const { shared, operations } = operationsOf(item);
    for (const [method, operation] of operations) {
      const operationId = operation.operationId ?? '';
      const parameters = [...shared, ...(operation.parameters ?? [])].map(deref);
      const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
      const goodPath = Object.fromEntries(pathParameters.map((parameter) => [parameter.name, String(goodValue(flat(parameter.schema)))]));
      const requestBody = operation.requestBody ? deref(operation.requestBody) : undefined;
      const bodySchema = requestBody ? flat(requestBody.content?.['application/json']?.schema) : undefined;
      const goodBody = bodySchema
        ? Object.fromEntries((bodySchema.required ?? []).map((name) => [name, goodValue(flat(bodySchema.properties?.[name]))]))
        : undefined;
      const call = async (path: Record<string, string>, query: Record<string, string> | undefined, body: unknown) => {
        const sent = { path: fillPath(template, path), query, body };
        const answer = await send(method.toUpperCase(), sent.path, query, body, caller);
        if (answer.status === 400) findings.push({ operationId, sent, status: answer.status, body: answer.body });
      };
      for (const parameter of pathParameters) {
        for (const bad of badTexts(flat(parameter.schema))) await call({ ...goodPath, [parameter.name]: bad }, undefined, goodBody);
      }
      for (const parameter of parameters.filter((candidate) => candidate.in === 'query')) {
        for (const bad of badTexts(flat(parameter.schema))) await call(goodPath, { [parameter.name]: bad }, goodBody);
      }
      await call(goodPath, { parametroDesconhecido: '1' }, goodBody);
      if (bodySchema) {
        await call(goodPath, undefined, {});
        await call(goodPath, undefined, { ...goodBody, campoDesconhecido: 1 });
        for (const [name, property] of Object.entries(bodySchema.properties ?? {})) {
          const schema = flat(property);
          for (const bad of badValues(schema)) await call(goodPath, undefined, { ...goodBody, [name]: bad });
          // Nested objects: each of their fields wrong.
          for (const [inner, innerProperty] of Object.entries(schema.properties ?? {})) {
            const innerGood = Object.fromEntries((schema.required ?? []).map((required) => [required, goodValue(flat(schema.properties?.[required]))]));
            for (const bad of badValues(flat(innerProperty))) await call(goodPath, undefined, { ...goodBody, [name]: { ...innerGood, [inner]: bad } });
          }
        }
      }
    }
  }
  return findings;
}

/** The operations of `file` that answered no 400 to any bad input (each must have been examined). */
function unexamined(file: string, findings: Finding[]): string[] {
  const seen = new Set(findings.map((finding) => finding.operationId));
  return Object.values(load(file).paths)
    .flatMap((item) => operationsOf(item).operations.map(([, operation]) => operation.operationId ?? ''))
    .filter((operationId) => !seen.has(operationId));
}

/** The problems of the findings: English words, API field names, a missing `field`. */
function problemsOf(findings: Finding[], names: Set<string>): string[] {
  const problems: string[] = [];
  // Names a person could read as Portuguese or as the label itself (URL) are not evidence.
  const apiNames = [...names].filter((name) => !['url', 'status'].includes(name));
  for (const finding of findings) {
    const body = finding.body as { error?: unknown; field?: unknown };
    const message = typeof body.error === 'string' ? body.error : '';
    const where = `${finding.operationId} ${JSON.stringify(finding.sent).slice(0, 160)} → ${JSON.stringify(finding.body)}`;
    if (message === '') problems.push(`no message: ${where}`);
    const english = ENGLISH.exec(message);
    if (english) problems.push(`English "${english[1]}": ${where}`);
    // The unknown field's own name is echoed on purpose: it is what the person sent, not ours.
    const echoed = /^(Campo|Parâmetro de consulta) não permitido: '([^']*)'\.$/.exec(message)?.[2];
    for (const name of apiNames) {
      if (name === echoed) continue;
      if (new RegExp(`(^|[^\\p{L}\\p{N}_])${name}([^\\p{L}\\p{N}_]|$)`, 'u').test(message)) problems.push(`API name "${name}": ${where}`);
    }
    if (/^[A-ZÀ-Ú][^:]*: /.test(message) && typeof body.field !== 'string') problems.push(`a field's message without "field": ${where}`);
  }
  return problems;
}

let owner: DashboardPerson;
beforeAll(async () => {
  owner = await signUpOwner(gateway, { totp: true });
}, 60_000);

describe('what people read when the dashboard API refuses input', () => {
  it('every 400 of every dashboard operation is Portuguese, with labels, beside its field', async () => {
    const findings = await walk('dashboard-openapi.json', { auth: authOf(owner) });
    expect(findings.length).toBeGreaterThan(150);
    expect(unexamined('dashboard-openapi.json', findings)).toEqual([]);
    expect(problemsOf(findings, fieldNames(load('dashboard-openapi.json')))).toEqual([]);
  }, 240_000);
});

describe('what people read when the back-office API (the console) refuses input', () => {
  it('every 400 of every back-office operation is Portuguese, with labels, beside its field', async () => {
    const findings = await walk('admin-openapi.json', { auth: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(findings.length).toBeGreaterThan(200);
    expect(unexamined('admin-openapi.json', findings)).toEqual([]);
    expect(problemsOf(findings, fieldNames(load('admin-openapi.json')))).toEqual([]);
  }, 240_000);
});
