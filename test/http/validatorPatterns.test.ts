import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { adminSpec, merchantSpec, type OpenApiDocument } from '../../src/http/spec.ts';
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

/**
 * Each validator the middleware builds compiles the OpenAPI meta-schema to check its document;
 * src/http/validator.ts shares one compiled check per process (issue 33). Documents are still checked.
 */
describe('the check of the documents themselves', () => {
  type Check = { validate(document: object): { errors: unknown[] } };
  function checks(): new (options: { version: string; validateApiSpec: boolean }) => Check {
    openApiValidator(merchantSpec(), false);
    return (createRequire(import.meta.resolve('express-openapi-validator'))('./framework/openapi.schema.validator.js') as { OpenAPISchemaValidator: ReturnType<typeof checks> }).OpenAPISchemaValidator;
  }

  it('is compiled once per OpenAPI version and mode, and still refuses a broken document', () => {
    const Check = checks();
    const first = new Check({ version: '3.1.0', validateApiSpec: true });
    expect(new Check({ version: '3.1.0', validateApiSpec: true })).toBe(first);
    expect(new Check({ version: '3.1.0', validateApiSpec: false })).not.toBe(first);
    expect(first.validate(merchantSpec()).errors).toEqual([]);
    expect(first.validate({ openapi: '3.1.0', info: { title: 7 }, paths: {} }).errors.length).toBeGreaterThan(0);
  });

  /** The error a middleware built on `document` passes on at its first request (GET /v1/balance). */
  async function firstError(document: OpenApiDocument): Promise<string> {
    const app = express();
    app.use(openApiValidator(document, false));
    let message = '';
    app.use((error: Error, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
      message = error.message;
      response.status(500).end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/balance`);
    } finally {
      server.close();
    }
    return message;
  }

  it('refuses a broken document at the first request of a middleware built after a valid one', async () => {
    expect(await firstError(merchantSpec())).not.toMatch(/apiDoc/);
    expect(await firstError({ openapi: '3.1.0', info: { title: 7 }, paths: {} } as unknown as OpenApiDocument)).toMatch(/args\.apiDoc was invalid/);
  });
});

/** One validator per bundled document and response mode per process (src/http/validator.ts, issue 33). */
describe('validators of the bundled documents', () => {
  it('are built once per document and response mode, and never shared with a document made elsewhere', () => {
    const first = openApiValidator(merchantSpec(), true);
    expect(openApiValidator(merchantSpec(), true)).toBe(first);
    expect(openApiValidator(merchantSpec(), false)).not.toBe(first);
    expect(openApiValidator(adminSpec(), true)).not.toBe(first);
    const madeHere = structuredClone(merchantSpec());
    expect(openApiValidator(madeHere, true)).not.toBe(first);
    expect(openApiValidator(madeHere, true)).not.toBe(openApiValidator(madeHere, true));
  });
});
