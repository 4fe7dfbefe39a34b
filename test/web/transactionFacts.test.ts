import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/dashboard-types.ts';
import { formatDocument, maskDocument } from '../../web/shared/format.ts';
import { transactionFacts, transactionStatusLabel, type Fact } from '../../web/dashboard/src/transactionFacts.ts';

/**
 * Issue 22, defect 2: the dashboard labelled every finished transaction as paid (`paidAt` is the time of any
 * final state): a cancelled charge showed "Paga em" and "Líquido creditado", a refused withdrawal "Total
 * debitado" and "Paga em", and an operator-refused withdrawal "Falhou". The page's facts come from
 * web/dashboard/src/transactionFacts.ts, by status and refusal code.
 */
type Transaction = components['schemas']['Transaction'];
const AT = 1_795_127_400_123;

const charge = (status: Transaction['status'], extra: Partial<Transaction> = {}): Transaction => ({
  transactionId: 'tx_6a1f3c9e2b7d4058c1e9a2f4',
  type: 'pix_in',
  amountCents: 2_550,
  feeCents: 25,
  netCents: 2_525,
  status,
  paidAt: AT,
  createdAt: AT - 60_000,
  updatedAt: AT,
  ...extra,
});
const withdrawal = (status: Transaction['status'], extra: Partial<Transaction> = {}): Transaction => ({
  ...charge(status),
  type: 'withdrawal',
  amountCents: 10_000,
  feeCents: 100,
  netCents: 10_100,
  ...extra,
});
const labels = (facts: Fact[]) => facts.map((fact) => fact.label);

describe('transaction facts by status', () => {
  it('labels only paid and refunded charges as paid and credited', () => {
    expect(labels(transactionFacts(charge('paid')))).toEqual(['Líquido creditado', 'Paga em']);
    expect(labels(transactionFacts(charge('partially_refunded', { refundedCents: 500 })))).toEqual(['Líquido creditado', 'Devolvido ao pagador', 'Paga em']);
    for (const [status, when] of [
      ['cancelled', 'Cancelada em'],
      ['expired', 'Expirada em'],
      ['failed', 'Falhou em'],
    ] as const) {
      const shown = labels(transactionFacts(charge(status)));
      expect(shown).toContain(when);
      expect(shown).not.toContain('Paga em');
      expect(shown).not.toContain('Líquido creditado');
      expect(transactionFacts(charge(status)).find((fact) => fact.label === 'Creditado')).toMatchObject({ text: expect.stringMatching(/^Nada/) });
    }
    expect(labels(transactionFacts(charge('pending', { paidAt: null })))).toEqual(['Líquido a creditar quando paga']);
  });

  it('never says a failed or refused withdrawal debited or was paid; an operator refusal is "Recusado"', () => {
    const refused = withdrawal('failed', { refusedCode: 'REJECTED_BY_COMPLIANCE', refusedReason: 'Recusado pela equipe.' });
    expect(transactionStatusLabel(refused)).toBe('Recusado');
    expect(transactionFacts(refused)).toEqual([
      { label: 'Debitado', text: 'Nada: o saldo não foi movido' },
      { label: 'Recusado em', time: AT },
    ]);
    const providerRefused = withdrawal('failed', { refusedCode: 'PROVIDER_REJECTED' });
    expect(transactionStatusLabel(providerRefused)).toBe('Falhou');
    expect(labels(transactionFacts(providerRefused))).toEqual(['Debitado', 'Falhou em']);
    expect(transactionFacts(providerRefused)[0]).toMatchObject({ text: expect.stringMatching(/voltaram ao saldo/) });
    for (const code of ['INSUFFICIENT_BALANCE', 'DAILY_LIMIT_EXCEEDED', 'MONTHLY_LIMIT_EXCEEDED']) {
      expect(transactionFacts(withdrawal('failed', { refusedCode: code }))[0]).toEqual({ label: 'Debitado', text: 'Nada: o saldo não foi movido' });
    }
    for (const facts of [transactionFacts(refused), transactionFacts(providerRefused)]) {
      expect(labels(facts)).not.toContain('Total debitado');
      expect(labels(facts)).not.toContain('Paga em');
    }
  });

  it('says a withdrawal awaiting approval has debited nothing yet, and a paid one what left the balance', () => {
    const queued = transactionFacts(withdrawal('pending_approval', { paidAt: null }));
    expect(queued).toEqual([
      { label: 'A debitar se aprovado', cents: 10_100 },
      { label: 'Debitado até agora', text: expect.stringMatching(/^Nada/) },
    ]);
    expect(transactionFacts(withdrawal('paid'))).toEqual([
      { label: 'Total debitado', cents: 10_100 },
      { label: 'Paga em', time: AT },
    ]);
  });
});

describe('documents as people see them', () => {
  it('formats CPF and CNPJ and masks a CPF to its middle six digits', () => {
    expect(formatDocument('52998224725')).toBe('529.982.247-25');
    expect(formatDocument('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskDocument('529.982.247-25')).toBe('***.982.247-**');
    expect(maskDocument('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatDocument('**.222.333/0001-**')).toBe('**.222.333/0001-**');
  });
});
