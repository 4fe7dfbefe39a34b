import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answerFor, mappedErrorClasses } from '../../src/http/errorMapping.ts';
import { DomainError } from '../../src/platform/domainError.ts';

/** Every `*.errors.ts` module under src/: where services' domain errors are declared. */
function errorModules(dir = 'src'): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return errorModules(full);
    return name.endsWith('.errors.ts') ? [full] : [];
  });
}

async function declaredErrorClasses(): Promise<Map<string, typeof DomainError>> {
  const classes = new Map<string, typeof DomainError>();
  for (const file of errorModules()) {
    const module = (await import(pathToFileURL(path.resolve(file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === 'function' && value.prototype instanceof DomainError) classes.set(`${file}:${name}`, value as typeof DomainError);
    }
  }
  return classes;
}

describe('domain errors', () => {
  it('every domain error class has its HTTP answer in src/http/errorMapping.ts', async () => {
    const classes = await declaredErrorClasses();
    expect(classes.size).toBeGreaterThan(40);
    const mapped = mappedErrorClasses();
    const unmapped = [...classes].filter(([, errorClass]) => !mapped.has(errorClass)).map(([name]) => name);
    expect(unmapped).toEqual([]);
  });

  it('answers each audience from its own catalogue, and falls back to the other when one has no text', async () => {
    const { TransactionNotFound } = await import('../../src/transactions/transaction.errors.ts');
    expect(answerFor(new TransactionNotFound(), 'merchant')).toMatchObject({ status: 404, message: 'Transação não encontrada.' });
    expect(answerFor(new TransactionNotFound(), 'operator')).toMatchObject({ status: 404, message: 'Transação não encontrada.' });
    const { InsufficientBalance } = await import('../../src/withdrawals/withdrawal.errors.ts');
    expect(answerFor(new InsufficientBalance(), 'operator')).toMatchObject({ status: 422, message: 'Saldo insuficiente para realizar o saque.' });
  });
});
