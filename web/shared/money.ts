import extenso from 'extenso';

/**
 * Amounts as people in Brazil type them: `.` groups thousands, `,` separates centavos (`1.234,56`). One parser
 * and one mask for both applications, and the value in words shown beside a money field before it is sent.
 */

export { parseBrl } from './brl.ts';

/**
 * The mask applied as the person types: digits of the whole part grouped by `.`, one `,`, at most two
 * centavos. A `.` typed by the person is a thousands separator, as in Brazil, never a decimal point: the value
 * in words shown beside the field makes any slip visible before confirming.
 */
export function maskBrl(typed: string): string {
  const commaAt = typed.indexOf(',');
  const wholeDigits = (commaAt === -1 ? typed : typed.slice(0, commaAt)).replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  const grouped = wholeDigits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  if (commaAt === -1) return grouped;
  const fraction = typed.slice(commaAt + 1).replace(/\D/g, '').slice(0, 2);
  return `${grouped === '' ? '0' : grouped},${fraction}`;
}

/** Cents as words, e.g. 123456 → `mil duzentos e trinta e quatro reais e cinquenta e seis centavos`. */
export function brlInWords(cents: number): string {
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  return extenso(`${whole}.${fraction}`, { mode: 'currency' });
}
