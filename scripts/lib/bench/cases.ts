/**
 * The requests each case sends, per operation and per server. Bodies are valid for the contract (CPF
 * 52998224725 with its check digits, phone of 11 digits…) and unique per request where the operation
 * is idempotent by `externalRef`, so every request does the full work of a new charge or withdrawal.
 */
import type { RequestSpec } from './load.ts';
import { chargeBody, withdrawalBody } from './provision.ts';
import type { OperationId, TargetId } from './report.ts';

/** Prism checks only that a bearer token is there; this one has the shape of a PixGate key. */
export const MOCK_API_KEY = `pixg_${'0'.repeat(64)}`;

export interface CaseContext {
  target: TargetId;
  /** API key of the account whose charges and reads are measured. */
  readKey: string;
  /** API key of the funded account whose withdrawals are measured (0 earlier withdrawals). */
  withdrawKey: string;
  /** API key of the funded account with 50,000 earlier withdrawals today. */
  loadedWithdrawKey?: string;
  /** API keys of the funded accounts the spread withdrawal case takes in turn. */
  spreadWithdrawKeys?: string[];
  /** An existing transaction of the read account. */
  transactionId: string;
  /** Distinguishes the externalRefs of this run from every other (the database outlives one server). */
  runTag: string;
}

export function requestFor(operation: OperationId, context: CaseContext): RequestSpec {
  const prism = context.target === 'prism';
  const auth = (key: string) => ({ Authorization: `Bearer ${prism ? MOCK_API_KEY : key}` });
  // Prism answers the first documented status unless asked: the creation examples are the 201s.
  const post = { 'Content-Type': 'application/json', ...(prism ? { Prefer: 'code=201' } : {}) };
  let sequence = 0;
  const ref = (kind: string) => `bench-${context.runTag}-${context.target}-${kind}-${++sequence}`;
  switch (operation) {
    case 'getBalance':
      return { method: 'GET', path: '/v1/balance', headers: auth(context.readKey) };
    case 'getTransaction':
      return { method: 'GET', path: `/v1/transactions/${context.transactionId}`, headers: auth(context.readKey) };
    case 'createCharge':
      return {
        method: 'POST',
        path: '/v1/pix',
        headers: { ...auth(context.readKey), ...post },
        body: () => JSON.stringify(chargeBody(100 + (sequence % 9900), ref('pix'))),
      };
    case 'createWithdrawal':
    case 'createWithdrawalLoaded':
    case 'createWithdrawalSpread': {
      const key = operation === 'createWithdrawalLoaded' ? context.loadedWithdrawKey : context.withdrawKey;
      if (key === undefined) throw new Error(`${operation}: no funded account`);
      const spread = operation === 'createWithdrawalSpread' && !prism ? (context.spreadWithdrawKeys ?? []) : [];
      if (operation === 'createWithdrawalSpread' && !prism && spread.length === 0) throw new Error(`${operation}: no funded accounts`);
      return {
        method: 'POST',
        path: '/v1/withdraw',
        headers: { ...auth(key), ...post },
        body: () => JSON.stringify(withdrawalBody(WITHDRAWAL_CENTS, ref(operation))),
        ...(spread.length ? { rotateHeaders: spread.map((apiKey) => auth(apiKey)) } : {}),
      };
    }
  }
}

/** Every benchmark withdrawal moves R$ 1,00 (plus the account's default fee of R$ 1,00). */
export const WITHDRAWAL_CENTS = 100;
/** What one withdrawal takes from the balance with the default withdrawal fee (100 fixed cents). */
export const WITHDRAWAL_DEBIT_CENTS = 200;
