/**
 * Reading bundled OpenAPI documents: operations, responses and their examples.
 */
import { deref, isObject, toPointer } from './json.ts';
import type { Json, JsonObject } from './json.ts';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  /** Upper case, as in the contract's headings: `POST`. */
  method: string;
  path: string;
  operation: JsonObject;
  /** Pointer of the operation in the document, e.g. `#/paths/~1v1~1pix/post`. */
  pointer: string;
}

export function listOperations(document: Json): Operation[] {
  const paths = isObject(document) ? document['paths'] : undefined;
  if (!isObject(paths)) return [];
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(document, rawItem);
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isObject(operation)) {
        operations.push({ method: method.toUpperCase(), path, operation, pointer: toPointer(['paths', path, method]) });
      }
    }
  }
  return operations;
}

export interface NamedExample {
  /** The key in `examples`, or `example` for the single `example` field. */
  name: string;
  value: Json;
}

/** Examples of a media type (or parameter/header): `example` and every entry of `examples`, resolved. */
export function examplesOf(document: Json, holder: JsonObject): NamedExample[] {
  const found: NamedExample[] = [];
  if ('example' in holder) found.push({ name: 'example', value: holder['example'] ?? null });
  const examples = holder['examples'];
  if (isObject(examples)) {
    for (const [name, rawExample] of Object.entries(examples)) {
      const example = deref(document, rawExample);
      if (isObject(example) && 'value' in example) found.push({ name, value: example['value'] ?? null });
    }
  }
  return found;
}

export interface ResponseExamples {
  status: string;
  mediaType: string;
  examples: NamedExample[];
}

/** Every response of an operation with the examples of each of its media types. */
export function responseExamples(document: Json, operation: JsonObject): ResponseExamples[] {
  const responses = deref(document, operation['responses']);
  if (!isObject(responses)) return [];
  const found: ResponseExamples[] = [];
  for (const [status, rawResponse] of Object.entries(responses)) {
    const response = deref(document, rawResponse);
    const content = isObject(response) ? deref(document, response['content']) : undefined;
    if (!isObject(content)) continue;
    for (const [mediaType, rawMedia] of Object.entries(content)) {
      const media = deref(document, rawMedia);
      if (isObject(media)) found.push({ status, mediaType, examples: examplesOf(document, media) });
    }
  }
  return found;
}

/** The security requirements in force for an operation: its own, else the document's. */
export function effectiveSecurity(document: Json, operation: JsonObject): Json | undefined {
  if ('security' in operation) return operation['security'];
  return isObject(document) ? document['security'] : undefined;
}
