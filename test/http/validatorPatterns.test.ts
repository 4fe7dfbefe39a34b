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
