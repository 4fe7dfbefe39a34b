/**
 * JSON values and the small set of operations the toolchain needs on API documents: type guards,
 * JSON Pointer resolution of internal `$ref`s, and deterministic serialisation.
 */
import { stringify as toYaml } from 'yaml';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `#/a/b~1c` -> ['a', 'b/c'] (RFC 6901). */
export function pointerSegments(pointer: string): string[] {
  const fragment = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (fragment === '' || fragment === '/') return fragment === '/' ? [''] : [];
  return fragment
    .slice(1)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** ['a', 'b/c'] -> `#/a/b~1c`. */
export function toPointer(segments: readonly (string | number)[]): string {
  return `#${segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;
}

/** Value at an internal pointer, or undefined. */
export function atPointer(document: Json, pointer: string): Json | undefined {
  let node: Json | undefined = document;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/**
 * Follows internal `$ref`s (`#/...`) until a non-reference node. Bundled documents only hold internal
 * references; an external one is a bundling bug and throws.
 */
export function deref(document: Json, node: Json | undefined): Json | undefined {
  const seen = new Set<string>();
  let current = node;
  while (isObject(current) && typeof current['$ref'] === 'string') {
    const ref = current['$ref'];
    if (!ref.startsWith('#')) throw new Error(`External $ref in a bundled document: ${ref}`);
    if (seen.has(ref)) throw new Error(`Circular $ref: ${ref}`);
    seen.add(ref);
    current = atPointer(document, ref);
  }
  return current;
}

/** Pretty JSON with a final newline; key order is the source order, so the output is deterministic. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** YAML with no line folding and no anchors, so the output only changes when the content does. */
export function stableYaml(value: unknown): string {
  return toYaml(value, { lineWidth: 0, aliasDuplicateObjects: false, indent: 2 });
}

/** Every `$ref` string in a document, with its location. */
export function collectRefs(node: Json, path: (string | number)[] = []): { ref: string; at: string }[] {
  const found: { ref: string; at: string }[] = [];
  if (Array.isArray(node)) node.forEach((item, i) => found.push(...collectRefs(item, [...path, i])));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push({ ref: value, at: toPointer(path) });
      else found.push(...collectRefs(value, [...path, key]));
    }
  }
  return found;
}
