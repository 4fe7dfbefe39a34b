/**
 * How people in Brazil type an amount: `.` groups thousands, `,` separates centavos (`1.234,56`). The one
 * reading of a typed amount, without dependencies, so the server reads the dashboard's search box exactly
 * as the pages' money fields read what is typed (src/dashboard/transactionSearch.ts).
 */

/** Cents from `1.234,56`, `1234,56`, `1.234`, `R$ 10`, `0,5`; undefined for anything else (`1234.56`, `12.34`, `1,234`). */
export function parseBrl(text: string): number | undefined {
  const cleaned = text.replace(/R\$|\s/g, '');
  const match = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(cleaned);
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  const cents = Number(whole.replace(/\./g, '')) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}
