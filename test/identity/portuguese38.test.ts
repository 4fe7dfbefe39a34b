import { describe, expect, it } from 'vitest';
import { translations as packaged } from '@zxcvbn-ts/language-pt-br';
import { PASSWORD_FEEDBACK } from '../../src/identity/passwordFeedback.ts';
import { passwordProblem } from '../../src/identity/passwordPolicy.ts';
import { statusLabel, transactionStatusLabel } from '../../web/shared/statusLabels.ts';
import { exportTransactions } from '../../src/dashboard/exports.service.ts';
import { dashboardBrowser } from '../support/dashboardClient.ts';
import { freshEmail, signUpOwner } from '../support/dashboardAccounts.ts';
import { makeCnpj, makeCpf, useGateway, validCustomer } from '../support/gateway.ts';

/**
 * Issue 38, defect 9, Portuguese: the password hint read "Senha não deve haver nenhum dado pessoal ou
 * relacionado." (the estimator's own string); `pixgate2026`, the product's name and a year, was accepted;
 * the transactions CSV's Situação column had `paid`, `refunded`.
 */
const gateway = useGateway();

describe('passwords in Portuguese people expect (issue 38, defect 9)', () => {
  it('refuses the product’s name with a year at sign-up, with a hint that says what to do', async () => {
    const answer = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/signup', {
      body: { legalName: 'Loja Senha Ltda', responsibleCpf: makeCpf(), companyCnpj: makeCnpj(), city: 'Recife', state: 'PE', name: 'Pessoa', email: freshEmail('produto'), password: 'pixgate2026' },
    });
    expect(answer.response.status).toBe(400);
    expect(answer.error?.field).toBe('password');
    expect(answer.error?.error).toContain('Não use na senha o seu nome, o seu e-mail, o nome da empresa nem o nome PixGate.');
    expect(answer.error?.error).not.toContain('não deve haver');
    for (const variant of ['PixGate@2026', 'painelpixgate']) expect(await passwordProblem(variant, ['x@y.com.br']), variant).toMatchObject({ kind: 'guessable' });
    expect(await passwordProblem('cavalo correto bateria grampo', ['x@y.com.br'])).toBeUndefined();
  });

  it('words every hint of the estimator as a whole sentence of ours, for every key the package has', () => {
    for (const group of ['warnings', 'suggestions'] as const) {
      expect(Object.keys(PASSWORD_FEEDBACK[group]).sort()).toEqual(Object.keys(packaged[group]).sort());
      for (const [key, text] of Object.entries(PASSWORD_FEEDBACK[group])) expect(text, key).toMatch(/^[A-ZÀ-Ú“].*\.$/);
    }
    // The package's broken sentences are gone.
    expect(JSON.stringify(PASSWORD_FEEDBACK)).not.toMatch(/não deve haver|além do que primeira|Evite datas e anos associados a você"|Evite anos recentes"/);
  });
});

describe('the transactions CSV in Portuguese (issue 38, defect 9)', () => {
  it('writes the status as the pages say it, never the API’s word', async () => {
    const shop = await signUpOwner(gateway);
    const paid = await shop.browser.api.POST('/dashboard/api/v1/charges', { body: { amountCents: 1_500, customer: validCustomer } });
    await shop.browser.api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: paid.data?.transactionId ?? '', action: 'pay' } } });
    await shop.browser.api.POST('/dashboard/api/v1/charges', { body: { amountCents: 2_500, customer: validCustomer } });
    let csv = '';
    await exportTransactions(gateway.deps, shop.accountId, { from: '2026-01-01', to: '2026-12-31' }, async (chunk) => {
      csv += chunk;
      return true;
    });
    const statuses = csv.split('\r\n').slice(1, -1).map((line) => line.split(';')[2]);
    expect(statuses.sort()).toEqual(['Pago', 'Pendente']);
    for (const status of ['pending', 'processing', 'pending_approval', 'paid', 'failed', 'failed_unknown', 'cancelled', 'expired', 'refunded', 'partially_refunded']) {
      expect(statusLabel(status), status).not.toBe(status);
    }
    expect(transactionStatusLabel({ type: 'withdrawal', status: 'failed', refusedCode: 'REJECTED_BY_COMPLIANCE' })).toBe('Recusado');
  });
});
