/**
 * The bundled merchant spec has exactly the contract's operations, each fully described.
 */
import { describe, expect, it } from 'vitest';
import { contractOperations, rateLimitedOperations } from '../../scripts/lib/contract.ts';
import { isObject } from '../../scripts/lib/json.ts';
import { effectiveSecurity, listOperations } from '../../scripts/lib/openapi.ts';
import { contract, loadGenerated } from './helpers.ts';

const expected = contractOperations(contract());
const rateLimited = new Set(rateLimitedOperations(contract()));
const spec = loadGenerated('openapi.json');
const actual = listOperations(spec);
const key = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

describe('contract operations (generated/openapi.json)', () => {
  it('reads the 7 operations and the 3 rate-limited ones from the contract', () => {
    // Guards the parser: the contract's headings are `### POST /v1/pix - create a charge`.
    expect(expected.map(key)).toHaveLength(7);
    expect([...rateLimited]).toEqual(['POST /v1/pix', 'POST /v1/recipients', 'POST /v1/withdraw']);
  });

  it('has exactly the operations of the contract, plus the dated additive ones', () => {
    // Operations added after the written contract are marked with the date of their additive change.
    const added = actual.filter((op) => typeof op.operation['x-pixgate-since'] === 'string');
    expect(actual.filter((op) => !added.includes(op)).map(key).sort()).toEqual(expected.map(key).sort());
    expect(added.map(key).sort()).toEqual([
      'GET /v1/balance/entries',
      'GET /v1/due-charges',
      'GET /v1/due-charge-batches/{batchId}',
      'GET /v1/due-charges/{id}',
      'GET /v1/payment-links',
      'GET /v1/payment-links/{linkId}',
      'GET /v1/recurrences',
      'GET /v1/recurrences/{id}',
      'GET /v1/recurrences/{id}/cycles',
      'GET /v1/static-qrcodes',
      'GET /v1/static-qrcodes/{id}',
      'GET /v1/static-qrcodes/{id}/qrcode',
      'GET /v1/transactions/{id}/qrcode',
      'PATCH /v1/due-charges/{id}',
      'POST /v1/due-charges',
      'POST /v1/due-charge-batches',
      'POST /v1/due-charges/{id}/cancel',
      'POST /v1/payment-links',
      'POST /v1/payment-links/{linkId}/deactivate',
      'POST /v1/recurrences',
      'POST /v1/recurrences/{id}/cancel',
      'POST /v1/recurrences/{id}/cycles',
      'POST /v1/static-qrcodes',
      'POST /v1/static-qrcodes/{id}/deactivate',
      'POST /v1/transactions/{id}/refunds',
    ].sort());
    for (const op of added) expect(op.operation['x-pixgate-since']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('has unique operationIds', () => {
    const ids = actual.map((op) => op.operation['operationId']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe.each(expected.map((op) => ({ name: key(op), op })))('$name', ({ op }) => {
    const found = actual.find((candidate) => key(candidate) === key(op));
    const operation = found?.operation ?? {};
    const responses = isObject(operation['responses']) ? operation['responses'] : {};

    it('has an operationId and a summary', () => {
      expect(found, `${key(op)} is missing from the spec`).toBeDefined();
      expect(operation['operationId']).toMatch(/^[A-Za-z][A-Za-z0-9]+$/);
      expect(typeof operation['summary'] === 'string' && operation['summary'].trim().length > 0).toBe(true);
    });

    it('requires a security scheme (its own or the global one)', () => {
      const security = effectiveSecurity(spec, operation);
      expect(Array.isArray(security) && security.length > 0, 'no security requirement').toBe(true);
      for (const requirement of Array.isArray(security) ? security : []) {
        expect(isObject(requirement) && Object.keys(requirement).length > 0, 'empty requirement {} makes auth optional').toBe(true);
      }
    });

    it('documents 401', () => {
      expect(Object.keys(responses)).toContain('401');
    });

    if (rateLimited.has(key(op))) {
      it('documents 429 (rate limited in the contract)', () => {
        expect(Object.keys(responses)).toContain('429');
      });
    }
  });
});
