import type { TransactionSearch } from '../transactions/transaction.repository.ts';
import { parseBrl } from '../../web/shared/brl.ts';

/**
 * What the dashboard's search box finds (issue 38, defect 5; docs/decisions.md): any transaction of the
 * account whose reference (`externalRef`) starts with the text typed (exactly as typed: references are the
 * merchant's own codes, where case matters), whose id starts with it (`tx_3fa9…`, or only the hex digits,
 * at least 4 of them), or whose amount it is, in reais as the money fields read it (`5000` and `5.000` are
 * R$ 5.000,00, `50,00` is R$ 50,00, `R$ 1.234,56`): the pages' own reading of amounts (web/shared/brl.ts).
 */
export function parseTransactionSearch(text: string): TransactionSearch {
  const typed = text.trim();
  const id = /^(?:tx_)?([0-9a-fA-F]{4,24})$/.exec(typed);
  const amountCents = parseBrl(typed);
  return {
    referencePrefix: typed,
    ...(id ? { idPrefix: `tx_${id[1]!.toLowerCase()}` } : {}),
    ...(amountCents !== undefined && amountCents > 0 ? { amountCents } : {}),
  };
}
