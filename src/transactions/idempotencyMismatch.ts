import type { Deps } from '../platform/deps.ts';

/**
 * A merchant reusing an externalRef for another request: it is answered with the original (the contract)
 * and told so in the body; here it is also logged and counted so the service team sees it. Field names
 * only: values (amounts, keys, documents) are never logged.
 */
export function reportIdempotencyMismatch(
  deps: Pick<Deps, 'logger' | 'metrics'>,
  operation: 'createCharge' | 'createWithdrawal' | 'createRefund',
  original: { accountId: string; transactionId: string; noun: 'charge' | 'withdrawal' | 'refund' },
  mismatchedFields: readonly string[],
): void {
  if (mismatchedFields.length === 0) return;
  deps.metrics.idempotencyMismatches.inc({ operation });
  deps.logger.warn(`externalRef reused with a different request: answered with the original ${original.noun}`, {
    operation,
    accountId: original.accountId,
    transactionId: original.transactionId,
    mismatchedFields,
  });
}
