/**
 * What a cobv asks for on a payment date (`DPP`), as its payload (`CobVPayload.valor`) shows it to the payer's
 * bank: `original`, then `abatimento` always, `desconto` up to the due date, `multa` and `juros` after it,
 * and `final`. Only the payload uses this: a payment (the payer end) carries the amount the payer's bank
 * worked out, which the fake does not check.
 *
 * The standard names the modalities (`CobVValor`) but not the arithmetic; the fake's choices:
 * - percentages apply to `original`; each component is rounded to the cent (half up) once, at the end;
 * - the due date is the adjusted one (moved to a business day, as `validadeAposVencimento` says every field
 *   referring to it must assume);
 * - `multa` (1 fixed, 2 percent) applies once on any day after the due date;
 * - `juros` per day late, counted from the due date: 1 amount and 2 percent per calendar day, 3 percent a
 *   month (a 30th per calendar day), 4 percent a year (a 365th per calendar day), 5 amount and 6 percent per
 *   business day, 7 percent a month (a 21st per business day), 8 percent a year (a 252nd per business day);
 * - `desconto` 1 / 2 (fixed dates): the amount or percent of the earliest `data` on or after the payment
 *   date; 3 / 5 per calendar day and 4 / 6 per business day of anticipation before the due date;
 * - `final` = original + multa + juros − abatimento − desconto, never below zero.
 */
import { adjustedDueDate, businessDaysBetween, daysBetween } from './calendar.ts';
import type { CobVPayload, CobVValor } from './types.ts';
import { valorText } from './values.ts';

/** Cents of `\d+\.\d{2}` (zero allowed), or 0. */
function cents(text: string | undefined): number {
  if (text === undefined || !/^\d{1,10}\.\d{2}$/.test(text)) return 0;
  const [units, hundredths] = text.split('.');
  return Number(units) * 100 + Number(hundredths);
}

/** `percent` ("15.00") of `base` cents, unrounded. */
const percentOf = (base: number, percent: string | undefined): number => (base * cents(percent)) / 10_000;

export function amountsOn(valor: CobVValor, dataDeVencimento: string, dpp: string): CobVPayload['valor'] {
  const original = cents(valor.original);
  const due = adjustedDueDate(dataDeVencimento);
  const late = dpp > due;
  const calendarLate = late ? daysBetween(due, dpp) : 0;
  const businessLate = late ? businessDaysBetween(due, dpp) : 0;
  const calendarEarly = dpp < due ? daysBetween(dpp, due) : 0;
  const businessEarly = dpp < due ? businessDaysBetween(dpp, due) : 0;

  let abatimento = 0;
  if (valor.abatimento) abatimento = valor.abatimento.modalidade === 1 ? cents(valor.abatimento.valorPerc) : percentOf(original, valor.abatimento.valorPerc);

  let multa = 0;
  if (late && valor.multa) multa = valor.multa.modalidade === 1 ? cents(valor.multa.valorPerc) : percentOf(original, valor.multa.valorPerc);

  let juros = 0;
  if (late && valor.juros) {
    const rate = valor.juros.valorPerc;
    const perDay: Record<number, number> = {
      1: cents(rate) * calendarLate,
      2: percentOf(original, rate) * calendarLate,
      3: (percentOf(original, rate) / 30) * calendarLate,
      4: (percentOf(original, rate) / 365) * calendarLate,
      5: cents(rate) * businessLate,
      6: percentOf(original, rate) * businessLate,
      7: (percentOf(original, rate) / 21) * businessLate,
      8: (percentOf(original, rate) / 252) * businessLate,
    };
    juros = perDay[valor.juros.modalidade] ?? 0;
  }

  let desconto = 0;
  const rule = valor.desconto;
  if (rule && dpp <= due) {
    if (rule.modalidade === 1 || rule.modalidade === 2) {
      const next = [...(rule.descontoDataFixa ?? [])].filter((item) => item.data >= dpp).sort((a, b) => a.data.localeCompare(b.data))[0];
      if (next) desconto = rule.modalidade === 1 ? cents(next.valorPerc) : percentOf(original, next.valorPerc);
    } else {
      const perDay: Record<number, number> = {
        3: cents(rule.valorPerc) * calendarEarly,
        4: cents(rule.valorPerc) * businessEarly,
        5: percentOf(original, rule.valorPerc) * calendarEarly,
        6: percentOf(original, rule.valorPerc) * businessEarly,
      };
      desconto = perDay[rule.modalidade] ?? 0;
    }
  }

  const [a, m, j, d] = [abatimento, multa, juros, desconto].map((value) => Math.round(value));
  const result: CobVPayload['valor'] = { original: valorText(original), final: valorText(Math.max(0, original + (m ?? 0) + (j ?? 0) - (a ?? 0) - (d ?? 0))) };
  if (valor.multa && late) result.multa = valorText(m ?? 0);
  if (valor.juros && late) result.juros = valorText(j ?? 0);
  if (valor.abatimento) result.abatimento = valorText(a ?? 0);
  if (valor.desconto && (d ?? 0) > 0) result.desconto = valorText(d ?? 0);
  return result;
}
