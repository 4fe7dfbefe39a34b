/**
 * Every Portuguese message of the contract's Errors and Limits sections:
 * - appears verbatim as the `error` of a response example in generated/openapi.json, with the status the
 *   contract files it under, on an operation the contract associates it with (when it names one);
 * - can be produced by the catalogue in src/messages/merchant.ts.
 * Placeholders (`<VALUE>`, `<N>`, `R$ X,YY`, a trailing `...`) match any text; see scripts/lib/contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { messages as catalogue, SERVICE_NAME } from '../../src/messages/merchant.ts';
import { contractMessages } from '../../scripts/lib/contract.ts';
import type { ContractMessage } from '../../scripts/lib/contract.ts';
import { isObject } from '../../scripts/lib/json.ts';
import { listOperations, responseExamples } from '../../scripts/lib/openapi.ts';
import { contract, loadGenerated } from './helpers.ts';

const contractList = contractMessages(contract(), SERVICE_NAME);
const spec = loadGenerated('openapi.json');

interface ErrorExample {
  method: string;
  path: string;
  status: string;
  name: string;
  error: string;
}

/** `{ error: "..." }` examples of every response of every operation (202 included: it carries `error`). */
const errorExamples: ErrorExample[] = listOperations(spec).flatMap(({ method, path, operation }) =>
  responseExamples(spec, operation).flatMap(({ status, examples }) =>
    examples.flatMap(({ name, value }) =>
      isObject(value) && typeof value['error'] === 'string' ? [{ method, path, status, name, error: value['error'] }] : [],
    ),
  ),
);

function applies(message: ContractMessage, example: ErrorExample): boolean {
  if (message.status !== undefined && String(message.status) !== example.status) return false;
  if (message.endpoints.length === 0) return true;
  return message.endpoints.some((e) => e.path === example.path && (e.method === undefined || e.method === example.method));
}

function describeMessage(message: ContractMessage): string {
  const where = message.endpoints.map((e) => `${e.method ?? '*'} ${e.path}`).join(', ') || 'any operation';
  return `contract message "${message.text}" (${message.source}; status ${message.status ?? 'any'}; ${where}; pattern ${message.pattern})`;
}

/** Catalogue entries rendered: strings as they are, functions with sample values of both kinds. */
const SAMPLES: readonly (string | number)[] = [10, 100, 'cpf', 'tx_5f2b9c0e7a41d3e8b6c19a70'];
const rendered: string[] = Object.values(catalogue).flatMap((entry: unknown) => {
  if (typeof entry === 'string') return [entry];
  if (typeof entry === 'function') {
    return SAMPLES.map((sample) => String((entry as (value: string | number) => unknown)(sample)));
  }
  return [];
});

describe('contract messages', () => {
  it('reads the messages of the Errors and Limits sections', () => {
    // Guards the extraction: the contract has about fifty message texts in those two sections.
    expect(contractList.length).toBeGreaterThanOrEqual(45);
    expect(contractList.map((m) => m.text)).toContain('Saldo insuficiente para realizar o saque.');
    expect(contractList.map((m) => m.text)).toContain('Limite de requisições atingido.');
  });

  describe('appear in error examples of generated/openapi.json', () => {
    it.each(contractList.map((message) => ({ text: message.text, message })))('$text', ({ message }) => {
      const candidates = errorExamples.filter((example) => applies(message, example));
      const hit = candidates.find((example) => message.pattern.test(example.error));
      const nearby = candidates.map((c) => `    ${c.method} ${c.path} ${c.status} ${c.name}: ${c.error}`).join('\n');
      expect(
        hit,
        `unmatched ${describeMessage(message)}\n  error examples where it belongs:\n${nearby || '    (none)'}`,
      ).toBeDefined();
    });
  });

  describe('are produced by src/messages/merchant.ts', () => {
    it.each(contractList.map((message) => ({ text: message.text, message })))('$text', ({ message }) => {
      const hit = rendered.find((text) => message.pattern.test(text));
      expect(hit, `unmatched ${describeMessage(message)}: no catalogue entry renders it`).toBeDefined();
    });
  });
});
