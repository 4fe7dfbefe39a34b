import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { merchantSpec } from '../../src/http/spec.ts';
import { openApiValidator } from '../../src/http/validator.ts';

/**
 * The validator compiles its route patterns with path-to-regexp on every request; src/http/validator.ts
 * memoizes that function on the module the validator loads, keyed by pattern and options.
 */
describe('route patterns of the validator', () => {
  it('are compiled once per pattern and options', () => {
    openApiValidator(merchantSpec(), false);
    const module = createRequire(import.meta.resolve('express-openapi-validator'))('path-to-regexp') as {
      pathToRegexp: (path: string, options?: object) => { regexp: RegExp };
    };
    const first = module.pathToRegexp('/v1/transactions/:id', { sensitive: false, strict: false });
    expect(module.pathToRegexp('/v1/transactions/:id', { sensitive: false, strict: false })).toBe(first);
    expect(first.regexp.exec('/v1/transactions/tx_1')?.[1]).toBe('tx_1');
    const strict = module.pathToRegexp('/v1/transactions/:id', { sensitive: false, strict: true });
    expect(strict).not.toBe(first);
    expect(module.pathToRegexp('/v1/balance', { sensitive: false, strict: false })).not.toBe(first);
  });
});

/**
 * The validator wraps each schema it gives Ajv with the whole document's `paths` and `components`;
 * src/http/validator.ts drops them from a schema that names no `$ref` (issue 33) and keeps them otherwise.
 */
describe('schemas the validator adds to Ajv', () => {
  type Added = Record<string, unknown>;
  function useAjvCache(): (ajv: { getSchema(key: string): unknown; addSchema(schema: Added, key: string): void }, schema: Added, key: string) => unknown {
    openApiValidator(merchantSpec(), false);
    const util = createRequire(import.meta.resolve('express-openapi-validator'))('./middlewares/util.js') as { useAjvCache: ReturnType<typeof useAjvCache> };
    return util.useAjvCache;
  }
  function fakeAjv(): { added: Map<string, Added>; getSchema(key: string): unknown; addSchema(schema: Added, key: string): void } {
    const added = new Map<string, Added>();
    return { added, getSchema: (key) => added.get(key), addSchema: (schema, key) => void added.set(key, schema) };
  }
  const document = { paths: { '/v1/balance': {} }, components: { schemas: { Money: { type: 'integer' } } } };

  it('are added without the document when they name no $ref, once per key', () => {
    const ajv = fakeAjv();
    const schema = { ...document, type: 'object', properties: { response: { type: 'integer' } } };
    expect(useAjvCache()(ajv, schema, 'GET-/v1/balance-200')).toEqual({ type: 'object', properties: { response: { type: 'integer' } } });
    expect(useAjvCache()(ajv, { ...schema, properties: {} }, 'GET-/v1/balance-200')).toBe(ajv.added.get('GET-/v1/balance-200'));
  });

  it('keep the document when they still name a $ref, or cannot be written as JSON', () => {
    const ajv = fakeAjv();
    const withRef = { ...document, properties: { response: { $ref: '#/components/schemas/Money' } } };
    expect(useAjvCache()(ajv, withRef, 'ref')).toBe(withRef);
    const cyclic: Added = { ...document, properties: {} };
    (cyclic.properties as Added).self = cyclic;
    expect(useAjvCache()(ajv, cyclic, 'cycle')).toBe(cyclic);
  });
});
