/**
 * The dashboard's CSV exports of transactions and of the statement, for a spreadsheet in Portuguese: UTF-8
 * with a byte-order mark (so Excel reads the accents), `;` between fields (`,` is the decimal separator),
 * CRLF line ends, a header row, amounts in reais as `1234,56`, dates and times in São Paulo. The rows are
 * read page by page through the lists' cursors and written as they come: any period costs the same memory.
 * New columns go at the end, so that the existing ones keep their positions.
 */
import { listBalanceEntries, type BalanceEntry } from '../balance/statement.service.ts';
import type { TransactionType } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import type { ListedTransaction } from '../transactions/transaction.repository.ts';
import { listAccountTransactions } from '../transactions/transaction.service.ts';
import { maskDocument } from '../../web/shared/format.ts';
import { transactionStatusLabel } from '../../web/shared/statusLabels.ts';
import { ExportDateInvalid, ExportPeriodInvalid } from './dashboard.errors.ts';
import { dayStart, saoPauloDateTime } from '../primitives/saoPaulo.ts';

export { saoPauloDateTime };

const PAGE = 100;
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;
export const BOM = '\uFEFF';

function calendarDate(text: string, field: 'from' | 'to'): { year: number; month: number; day: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (!match || year < 2000 || check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new ExportDateInvalid(field);
  }
  return { year, month, day };
}

/** The instants of a period of São Paulo days, `from` and `to` included: [start of from, start of the day after to). */
export function exportPeriod(from: string, to: string): { createdFrom: number; createdTo: number } {
  const first = calendarDate(from, 'from');
  const last = calendarDate(to, 'to');
  const days = (Date.UTC(last.year, last.month - 1, last.day) - Date.UTC(first.year, first.month - 1, first.day)) / DAY_MS;
  if (days < 0 || days >= MAX_DAYS) throw new ExportPeriodInvalid();
  return { createdFrom: dayStart(first.year, first.month, first.day), createdTo: dayStart(last.year, last.month, last.day + 1) };
}

// ---- CSV -----------------------------------------------------------------------------------------------

/** Cents as reais with a decimal comma and no thousands separator: `1234,56`, `-0,15`. */
export function reais(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/**
 * A text cell: quoted when it holds the separator, a quote or a line break; a cell a spreadsheet would run
 * as a formula (starting with = + - @, a tab or a carriage return) is prefixed with an apostrophe. Amounts
 * go through `reais` and are not text cells.
 */
export function cell(value: string | undefined | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const row = (cells: string[]) => `${cells.join(';')}\r\n`;

const TYPE_LABEL: Record<TransactionType, string> = { pix_in: 'Cobrança', withdrawal: 'Saque' };

export const TRANSACTION_HEADER = row([
  'Transação',
  'Tipo',
  'Situação',
  'Valor (R$)',
  'Tarifa (R$)',
  'Líquido (R$)',
  'Devolvido (R$)',
  'Referência',
  'Criada em',
  'Paga em',
  'Identificador fim a fim',
  // Since issue 36, at the end so that a spreadsheet reading the columns by position keeps working.
  'Modalidade',
  'QR Code estático',
  'Link de pagamento',
  'Pagador',
  'Documento do pagador',
]);

/**
 * What kind of charge a row is (issue 36): a payment of a static QR code, a charge of a payment link, a
 * charge with a due date, or an immediate one (POST /v1/pix). A withdrawal is no charge: empty.
 */
export function chargeKindLabel(tx: Pick<ListedTransaction, 'type' | 'charge_kind' | 'static_qrcode_id' | 'payment_link_id'>): string {
  if (tx.type !== 'pix_in') return '';
  if (tx.charge_kind === 'static' || tx.static_qrcode_id !== null) return 'QR Code estático';
  if (tx.payment_link_id !== null) return 'Link de pagamento';
  if (tx.charge_kind === 'due') return 'Com vencimento';
  return 'Imediata';
}

function transactionRow(tx: ListedTransaction): string {
  return row([
    cell(tx.id),
    cell(TYPE_LABEL[tx.type]),
    // The page's words for the status (issue 38: the column had `paid`, `refunded`).
    cell(transactionStatusLabel({ type: tx.type, status: tx.status, refusedCode: tx.refused_code })),
    reais(Number(tx.amount_cents)),
    reais(Number(tx.fee_cents)),
    reais(Number(tx.net_cents)),
    reais(Number(tx.refunded_cents ?? 0)),
    cell(tx.external_ref),
    saoPauloDateTime(tx.created_at.getTime()),
    tx.paid_at ? saoPauloDateTime(tx.paid_at.getTime()) : '',
    cell(tx.end_to_end_id),
    cell(chargeKindLabel(tx)),
    cell(tx.static_qrcode_id),
    cell(tx.payment_link_id),
    // Who paid, as the provider said (a paid charge); the CPF masked as on the transaction's page.
    cell(tx.type === 'pix_in' ? tx.payer?.name : undefined),
    cell(tx.type === 'pix_in' && tx.payer ? maskDocument(tx.payer.document) : undefined),
  ]);
}

const ENTRY_LABEL: Record<BalanceEntry['type'], string> = {
  charge_paid: 'Cobrança recebida',
  fee: 'Tarifa',
  withdrawal: 'Saque',
  withdrawal_fee: 'Tarifa de saque',
  withdrawal_returned: 'Saque devolvido',
  refund: 'Devolução',
  refund_returned: 'Devolução não realizada',
  chargeback: 'Contestação',
  adjustment: 'Ajuste',
};

export const STATEMENT_HEADER = row(['Lançamento', 'Tipo', 'Valor (R$)', 'Saldo após (R$)', 'Transação', 'Devolução', 'Data']);

function entryRow(entry: BalanceEntry): string {
  return row([
    cell(entry.entryId),
    cell(ENTRY_LABEL[entry.type] ?? entry.type),
    reais(entry.amountCents),
    reais(entry.balanceAfterCents),
    cell(entry.transactionId),
    cell(entry.refundId),
    saoPauloDateTime(entry.createdAt),
  ]);
}

/** Where the CSV goes: `write` resolves once the chunk may be followed (back-pressure); false: the reader left. */
export type CsvSink = (chunk: string) => Promise<boolean>;

/** Every transaction of the period (and filters), newest first, one page at a time. */
export async function exportTransactions(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  filter: { from: string; to: string; type?: TransactionType | undefined; status?: string | undefined },
  write: CsvSink,
  pageSize = PAGE,
): Promise<void> {
  const period = exportPeriod(filter.from, filter.to);
  let cursor: string | undefined;
  // The first page is read before anything is written, so a bad request is still answered with its 4xx.
  let page = await listAccountTransactions(deps, accountId, { ...period, type: filter.type, status: filter.status, limit: pageSize });
  if (!(await write(BOM + TRANSACTION_HEADER))) return;
  for (;;) {
    if (page.rows.length > 0 && !(await write(page.rows.map(transactionRow).join('')))) return;
    cursor = page.nextCursor;
    if (cursor === undefined) return;
    page = await listAccountTransactions(deps, accountId, { ...period, type: filter.type, status: filter.status, cursor, limit: pageSize });
  }
}

/** Every statement entry of the period, newest first, one page at a time. */
export async function exportStatement(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  filter: { from: string; to: string },
  write: CsvSink,
  pageSize = PAGE,
): Promise<void> {
  const period = exportPeriod(filter.from, filter.to);
  let page = await listBalanceEntries(deps, accountId, { ...period, limit: pageSize });
  if (!(await write(BOM + STATEMENT_HEADER))) return;
  for (;;) {
    if (page.entries.length > 0 && !(await write(page.entries.map(entryRow).join('')))) return;
    if (page.nextCursor === undefined) return;
    page = await listBalanceEntries(deps, accountId, { ...period, cursor: page.nextCursor, limit: pageSize });
  }
}

