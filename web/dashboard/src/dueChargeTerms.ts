import type { ApiProblem } from '../../shared/api.ts';
import { formatBrl, formatDate } from '../../shared/format.ts';
import type { Schemas } from './api.ts';

/**
 * Charges with a due date as people read and type them (issue 36): the terms in words, percentages typed
 * as `2` or `2,5` (sent as basis points, 100 = 1 %), and the server's field of a term shown beside the
 * form's one input for it.
 */

type DueCharge = Schemas['DueCharge'];

/** `2`, `2,5`, `2.5`, `0,33 %` → basis points (250); undefined for anything else or outside 0,01..100. */
export function parsePercent(typed: string): number | undefined {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?\s*%?$/.exec(typed.trim());
  if (!match) return undefined;
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return basisPoints >= 1 && basisPoints <= 10_000 ? basisPoints : undefined;
}

/** Basis points as a percentage people read: 250 → `2,5%`, 100 → `1%`. */
export function percentText(basisPoints: number): string {
  return `${(basisPoints / 100).toLocaleString('pt-BR', { maximumFractionDigits: 2 })}%`;
}

const INTEREST_PERIOD: Record<Schemas['DueChargeInterest']['mode'], string> = {
  fixed_per_calendar_day: 'por dia corrido de atraso',
  percent_per_calendar_day: 'ao dia (dias corridos)',
  percent_per_month_calendar_days: 'ao mês (dias corridos)',
  percent_per_year_calendar_days: 'ao ano (dias corridos)',
  fixed_per_business_day: 'por dia útil de atraso',
  percent_per_business_day: 'ao dia útil',
  percent_per_month_business_days: 'ao mês (dias úteis)',
  percent_per_year_business_days: 'ao ano (dias úteis)',
};

const valueText = (term: { amountCents?: number | undefined; basisPoints?: number | undefined }): string =>
  term.basisPoints !== undefined ? percentText(term.basisPoints) : formatBrl(term.amountCents ?? 0);

/** The charge's terms, one line each, in words (none: an empty list). */
export function termsInWords(charge: Pick<DueCharge, 'fine' | 'interest' | 'discount' | 'rebate'>): { name: string; value: string }[] {
  const lines: { name: string; value: string }[] = [];
  if (charge.fine) lines.push({ name: 'Multa', value: `${valueText(charge.fine)} após o vencimento` });
  if (charge.interest) lines.push({ name: 'Juros', value: `${valueText(charge.interest)} ${INTEREST_PERIOD[charge.interest.mode]}` });
  const discount = charge.discount;
  if (discount?.dates) {
    lines.push({ name: 'Desconto', value: discount.dates.map((item) => `${valueText(item)} até ${formatDate(item.date)}`).join('; ') });
  } else if (discount) {
    const unit = discount.mode.includes('business') ? 'dia útil' : 'dia corrido';
    lines.push({ name: 'Desconto', value: `${valueText(discount)} por ${unit} de antecedência` });
  }
  if (charge.rebate) lines.push({ name: 'Abatimento', value: valueText(charge.rebate) });
  return lines;
}

/** The parts of today's amount that differ from the amount billed, signed (`− R$ 10,00 de desconto`). */
export function amountDueParts(amountDue: DueCharge['amountDue']): string[] {
  const parts: [number | undefined, string, string][] = [
    [amountDue.discountCents, '−', 'de desconto'],
    [amountDue.rebateCents, '−', 'de abatimento'],
    [amountDue.fineCents, '+', 'de multa'],
    [amountDue.interestCents, '+', 'de juros'],
  ];
  return parts.filter(([cents]) => (cents ?? 0) > 0).map(([cents, sign, what]) => `${sign} ${formatBrl(cents ?? 0)} ${what}`);
}

/** The form's input of the discount's date (the only date of the discount the form offers). */
export const DISCOUNT_DATE_FIELD = 'discount.dates.0.date';

/**
 * A server problem about a part of a term (`fine.basisPoints`, `discount.dates.0.amountCents`) shown beside
 * the form's one input of that term; the address as a whole beside its first input.
 */
export function besideItsInput(problem: ApiProblem | undefined): ApiProblem | undefined {
  const field = problem?.field;
  if (!problem || field === undefined || field === DISCOUNT_DATE_FIELD) return problem;
  const term = /^(fine|interest|discount|rebate)(\.|$)/.exec(field)?.[1];
  if (term) return { ...problem, field: term };
  if (field === 'customer.address') return { ...problem, field: 'customer.address.street' };
  if (field === 'customer.document') return { ...problem, field: 'customer.document.number' };
  return problem;
}
