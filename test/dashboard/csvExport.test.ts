import { describe, expect, it } from 'vitest';
import { ExportDateInvalid, ExportPeriodInvalid } from '../../src/dashboard/dashboard.errors.ts';
import { BOM, cell, exportPeriod, exportStatement, exportTransactions, reais, saoPauloDateTime, TRANSACTION_HEADER } from '../../src/dashboard/exports.service.ts';
import { sandboxPayStaticQrCode } from '../../src/staticQrCodes/staticQrCode.sandbox.ts';
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

  it('says what kind of charge each row is (issue 36), with its static QR code or payment link and its payer, in columns after the old ones', async () => {
    expect(TRANSACTION_HEADER).toBe(
      'Transação;Tipo;Situação;Valor (R$);Tarifa (R$);Líquido (R$);Devolvido (R$);Referência;Criada em;Paga em;Identificador fim a fim;' +
        'Modalidade;QR Code estático;Link de pagamento;Pagador;Documento do pagador\r\n',
    );
    const shop = await signUpOwner(gateway);
    const key = await shop.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'loja' } });
    const merchant = gateway.as(key.data?.apiKey ?? '');

    // An immediate charge, paid.
    const immediate = await merchant.POST('/v1/pix', { body: { amountCents: 1_000, customer: validCustomer } });
    const immediateId = immediate.data?.transactionId ?? '';
    await shop.browser.api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: immediateId, action: 'pay' } } });
    // A charge with a due date, pending.
    const due = await merchant.POST('/v1/due-charges', {
      body: { amountCents: 5_000, dueDate: '2030-12-10', customer: { name: 'Maria da Silva', document: { number: '52998224725', type: 'cpf' } } },
    });
    const dueId = due.data?.transactionId ?? '';
    // A fixed-amount static QR code, paid by a known payer: its payment is a transaction of its own.
    const code = await merchant.POST('/v1/static-qrcodes', { body: { amountCents: 1_500, description: 'Caixa 1' } });
    const codeId = code.data?.staticQrCodeId ?? '';
    const payer = { name: 'João; "Pagador"', document: '11144477735', documentType: 'cpf' as const, bankAccount: { ispb: '00000000', branch: '0001', account: '123456' } };
    const paidCode = await sandboxPayStaticQrCode(gateway.deps, codeId, { payer });
    await gateway.efi?.settled();
    expect(paidCode.outcome).toBe('credited');
    // A payment link, opened by a payer: the page makes its charge.
    const link = await merchant.POST('/v1/payment-links', { body: { amountCents: 4_990, description: 'Camiseta azul' } });
    const linkId = link.data?.linkId ?? '';
    const page = await (await fetch(`${gateway.baseUrl}/pay/${linkId}`)).text();
    const linkChargeId = /data-charge="(tx_[0-9a-f]{24})"/.exec(page)?.[1] ?? '';
    expect(linkChargeId).not.toBe('');

    const chunks = await collect((write) => exportTransactions(gateway.deps, shop.accountId, { from: '2026-01-01', to: '2026-12-31' }, write));
    const rows = chunks.slice(1).join('').split('\r\n').filter(Boolean);
    expect(rows).toHaveLength(4);
    const rowOf = (id: string) => rows.map((line) => line.split(';')).find((cells) => cells[0] === id) ?? [];

    expect(rowOf(immediateId).slice(11, 14)).toEqual(['Imediata', '', '']);
    expect(rowOf(dueId).slice(11)).toEqual(['Com vencimento', '', '', '', '']);
    expect(rowOf(linkChargeId).slice(11)).toEqual(['Link de pagamento', '', linkId, '', '']);
    // The payer's name holds a separator and quotes: one quoted cell; the CPF masked as on the transaction's page.
    const codeLine = rows.find((line) => line.includes(`;${codeId};`)) ?? '';
    expect(codeLine.split(';').slice(1, 4)).toEqual(['Cobrança', 'Pago', '15,00']);
    expect(codeLine.endsWith(`;QR Code estático;${codeId};;"João; ""Pagador""";***.444.777-**`)).toBe(true);
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
