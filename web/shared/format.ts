/** How the pages show money and time: pt-BR, reais as `R$ 1.234,56`, times in America/Sao_Paulo. */
const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const DATE_TIME = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'medium' });

/** Cents of BRL as `R$ 1.234,56` (a regular space after `R$`, so the text reads the same everywhere). */
export function formatBrl(cents: number): string {
  return BRL.format(cents / 100).replace(/\u00a0/g, ' ');
}

const DAY = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short' });

/** Unix milliseconds as the São Paulo day, e.g. `23/11/2026`. */
export function formatDay(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : DAY.format(new Date(ms));
}

/** Unix milliseconds as São Paulo date and time, e.g. `23/11/2026, 11:05:12`. */
export function formatDateTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : DATE_TIME.format(new Date(ms));
}

export { parseBrl } from './money.ts';

export { statusLabel } from './statusLabels.ts';

const DAY_MS = 86_400_000;
const SAO_PAULO_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today in São Paulo, or `offsetDays` from it, as `YYYY-MM-DD`. */
export function saoPauloDate(offsetDays = 0): string {
  return SAO_PAULO_DAY.format(new Date(Date.now() + offsetDays * DAY_MS));
}

/** A calendar date `YYYY-MM-DD` plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from one calendar date `YYYY-MM-DD` to another (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * The instant a São Paulo day `YYYY-MM-DD` begins, for the lists' `createdFrom` / `createdTo`: the zone has
 * kept −03:00 since 2019 (the CSV exports, on the server, apply the zone's full rules).
 */
export function saoPauloDayStart(date: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const ms = Date.parse(`${date}T00:00:00-03:00`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `2026-11-26` as `26/11/2026`. */
export function formatDate(date: string): string {
  return date.split('-').reverse().join('/');
}

/** A CNPJ as `12.345.678/0001-90` (also the alphanumeric CNPJ); anything else as given. */
export function formatCnpj(cnpj: string): string {
  const compact = cnpj.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(compact)) return cnpj;
  return `${compact.slice(0, 2)}.${compact.slice(2, 5)}.${compact.slice(5, 8)}/${compact.slice(8, 12)}-${compact.slice(12)}`;
}

/** A CPF as `123.456.789-09`; anything else as given. */
export function formatCpf(cpf: string): string {
  const digits = cpf.replace(/\D/g, '');
  return digits.length === 11 ? digits.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4') : cpf;
}

/** CPF (11 digits) as `123.456.789-09`, CNPJ (14 characters, numeric or alphanumeric) as `11.222.333/0001-81`; anything else as given. */
export function formatDocument(document: string): string {
  return document.replace(/\D/g, '').length === 11 ? formatCpf(document) : formatCnpj(document);
}

/**
 * A payer's document as people may see it: a CPF masked as the central bank's receipts do
 * (`***.456.789-**`, the middle six digits), a CNPJ (a company's, public) in full and formatted.
 */
export function maskDocument(document: string): string {
  const digits = document.replace(/\D/g, '');
  if (digits.length === 11) return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  return formatDocument(document);
}

/**
 * A webhook attempt's recorded failure (the APIs keep the sender's technical words: `timeout`,
 * `unsafe address`, `redirect not followed`, `network: <cause>`) as people read it.
 */
export function deliveryErrorLabel(error: string): string {
  if (error === 'timeout') return 'Sem resposta no prazo.';
  if (error === 'unsafe address') return 'Endereço recusado: rede privada, interna ou de metadados.';
  if (error === 'redirect not followed') return 'Redirecionamento não seguido: cadastre a URL final.';
  const network = /^network: (.*)$/s.exec(error);
  if (network) return `Falha de rede (${network[1]}).`;
  return error;
}
