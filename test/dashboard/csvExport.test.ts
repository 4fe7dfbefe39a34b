import { describe, expect, it } from 'vitest';
import { ExportDateInvalid, ExportPeriodInvalid } from '../../src/dashboard/dashboard.errors.ts';
import { BOM, cell, exportPeriod, exportStatement, exportTransactions, reais, saoPauloDateTime } from '../../src/dashboard/exports.service.ts';
import { addDays, daysBetween, formatDate, saoPauloDayStart } from '../../web/shared/format.ts';
import { signUpOwner } from '../support/dashboardAccounts.ts';
import { useGateway, validCustomer } from '../support/gateway.ts';

/**
 * The pieces of the dashboard's CSV exports (src/dashboard/exports.service.ts): amounts, cells, São Paulo
 * days and times, and the export read page by page through the lists' cursors, every row once.
 */
describe('CSV cells', () => {
  it('writes cents as reais with a decimal comma, no thousands separator, debits with a minus', () => {
    expect([0, 5, 15, 100, 123_456, -15, -123_456, 100_000_000_000].map(reais)).toEqual([
      '0,00',
      '0,05',
      '0,15',
      '1,00',
      '1234,56',
      '-0,15',
      '-1234,56',
      '1000000000,00',
    ]);
  });

  it('quotes separators, quotes and line breaks, and defuses what a spreadsheet would run as a formula', () => {
    expect(cell('pedido-1')).toBe('pedido-1');
    expect(cell(undefined)).toBe('');
    expect(cell(null)).toBe('');
    expect(cell('a;b')).toBe('"a;b"');
    expect(cell('diz "oi"')).toBe('"diz ""oi"""');
    expect(cell('linha\nnova')).toBe('"linha\nnova"');
    for (const formula of ['=1+1', '+5', '-3', '@SUM(A1)', '\tx', '\rx']) expect(cell(formula).replace(/^"/, '')).toMatch(/^'/);
    expect(cell('=HYPERLINK("x";"y")')).toBe(`"'=HYPERLINK(""x"";""y"")"`);
  });
});

describe('São Paulo days and times', () => {
  const iso = (period: { createdFrom: number; createdTo: number }) => [new Date(period.createdFrom).toISOString(), new Date(period.createdTo).toISOString()];

  it('turns a period of calendar days into [start of the first, start of the day after the last)', () => {
    expect(iso(exportPeriod('2026-11-26', '2026-11-26'))).toEqual(['2026-11-26T03:00:00.000Z', '2026-11-27T03:00:00.000Z']);
    expect(iso(exportPeriod('2026-12-01', '2026-12-31'))).toEqual(['2026-12-01T03:00:00.000Z', '2027-01-01T03:00:00.000Z']);
    expect(iso(exportPeriod('2024-02-29', '2024-02-29'))).toEqual(['2024-02-29T03:00:00.000Z', '2024-03-01T03:00:00.000Z']);
  });

  it('follows the zone through the old daylight saving time: a day whose midnight did not exist, a day of 25 hours', () => {
    // 2018-11-04: 00:00 (-03) became 01:00 (-02); 2019-02-16 ended at 00:00 (-02), which became 23:00 (-03).
    expect(iso(exportPeriod('2018-11-03', '2018-11-03'))).toEqual(['2018-11-03T03:00:00.000Z', '2018-11-04T03:00:00.000Z']);
    expect(iso(exportPeriod('2018-11-04', '2018-11-04'))).toEqual(['2018-11-04T03:00:00.000Z', '2018-11-05T02:00:00.000Z']);
    expect(iso(exportPeriod('2019-02-16', '2019-02-16'))).toEqual(['2019-02-16T02:00:00.000Z', '2019-02-17T03:00:00.000Z']);
  });

  it('refuses what is not a calendar date, a period backwards or longer than 366 days', () => {
    for (const [from, to, field] of [
      ['2026-02-30', '2026-03-01', 'from'],
      ['26/11/2026', '2026-11-30', 'from'],
      ['2026-11-01', '2026-11-31', 'to'],
      ['2026-11-01', '', 'to'],
    ] as const) {
      expect(() => exportPeriod(from, to)).toThrow(ExportDateInvalid);
      try {
        exportPeriod(from, to);
      } catch (error) {
        expect((error as ExportDateInvalid).field).toBe(field);
      }
    }
    expect(() => exportPeriod('2026-11-02', '2026-11-01')).toThrow(ExportPeriodInvalid);
    expect(() => exportPeriod('2025-01-01', '2026-01-02')).toThrow(ExportPeriodInvalid); // 367 days
    expect(() => exportPeriod('2025-01-01', '2026-01-01')).not.toThrow(); // 366 days, both ends included
    expect(() => exportPeriod('2024-01-01', '2024-12-31')).not.toThrow(); // a leap year
  });

  it('writes times as São Paulo dates and times', () => {
    expect(saoPauloDateTime(Date.parse('2026-11-26T17:03:05Z'))).toBe('26/11/2026 14:03:05');
    expect(saoPauloDateTime(Date.parse('2027-01-01T02:59:59Z'))).toBe('31/12/2026 23:59:59');
  });

  it('gives the pages the same calendar arithmetic (web/shared/format.ts)', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2025-01-01', '2026-01-01')).toBe(365);
    expect(daysBetween('2026-11-02', '2026-11-01')).toBe(-1);
    expect(formatDate('2026-11-26')).toBe('26/11/2026');
    expect(saoPauloDayStart('2026-11-26')).toBe(Date.parse('2026-11-26T03:00:00Z'));
    expect(saoPauloDayStart('ontem')).toBeUndefined();
  });
});

describe('an export read page by page', () => {
  const gateway = useGateway();

  async function collect(run: (write: (chunk: string) => Promise<boolean>) => Promise<void>): Promise<string[]> {
    const chunks: string[] = [];
    await run(async (chunk) => {
      chunks.push(chunk);
      return true;
    });
    return chunks;
  }

  it('writes every row once, newest first, one chunk a page, across pages of a few rows', async () => {
    const shop = await signUpOwner(gateway);
    const key = await shop.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'loja' } });
    const merchant = gateway.as(key.data?.apiKey ?? '');
    const ids: string[] = [];
    for (let n = 0; n < 7; n += 1) {
      const created = await merchant.POST('/v1/pix', { body: { amountCents: 1_000 + n, customer: validCustomer, externalRef: `csv-${n}` } });
      ids.push(created.data?.transactionId ?? '');
      gateway.clock.advance(1_000);
    }
    // Five of them paid: a statement line each (two when the account pays a fee on charges).
    for (const id of ids.slice(0, 5)) {
      await shop.browser.api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: id, action: 'pay' } } });
    }
    const period = { from: '2026-01-01', to: '2026-12-31' };

    const chunks = await collect((write) => exportTransactions(gateway.deps, shop.accountId, period, write, 3));
    expect(chunks[0]?.startsWith(BOM + 'Transação;')).toBe(true);
    expect(chunks).toHaveLength(1 + 3); // the header, then pages of 3, 3 and 1
    const rows = chunks.slice(1).join('').split('\r\n').filter(Boolean);
    expect(rows.map((row) => row.split(';')[0])).toEqual([...ids].reverse());
    expect(rows.map((row) => row.split(';')[3])).toEqual(['10,06', '10,05', '10,04', '10,03', '10,02', '10,01', '10,00']);

    const paid = await collect((write) => exportTransactions(gateway.deps, shop.accountId, { ...period, status: 'paid' }, write, 2));
    expect(paid).toHaveLength(1 + 3);
    expect(paid.slice(1).join('').split('\r\n').filter(Boolean).map((row) => row.split(';')[0])).toEqual(ids.slice(0, 5).reverse());

    const statement = await collect((write) => exportStatement(gateway.deps, shop.accountId, period, write, 2));
    expect(statement[0]?.startsWith(BOM + 'Lançamento;')).toBe(true);
    const lines = statement.slice(1).join('').split('\r\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(statement).toHaveLength(1 + Math.ceil(lines.length / 2));
    expect(new Set(lines.map((line) => line.split(';')[0])).size).toBe(lines.length);
    expect([...new Set(lines.map((line) => line.split(';')[4]))]).toEqual(ids.slice(0, 5).reverse());
    // Each line's balance after is the one below it plus the line's amount.
    const cents = (text: string | undefined) => Math.round(Number((text ?? '').replace(',', '.')) * 100);
    for (let n = 0; n + 1 < lines.length; n += 1) {
      const [line, below] = [lines[n]?.split(';') ?? [], lines[n + 1]?.split(';') ?? []];
      expect(cents(line[3])).toBe(cents(below[3]) + cents(line[2]));
    }
  });

  it('stops reading when the reader has left', async () => {
    const shop = await signUpOwner(gateway);
    const key = await shop.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'loja' } });
    const merchant = gateway.as(key.data?.apiKey ?? '');
    for (let n = 0; n < 3; n += 1) await merchant.POST('/v1/pix', { body: { amountCents: 1_000, customer: validCustomer } });
    const chunks: string[] = [];
    await exportTransactions(
      gateway.deps,
      shop.accountId,
      { from: '2026-01-01', to: '2026-12-31' },
      async (chunk) => {
        chunks.push(chunk);
        return chunks.length < 2;
      },
      1,
    );
    expect(chunks).toHaveLength(2); // the header and one page: the reader left after it
  });
});
