import { describe, expect, it } from 'vitest';
import { operatorMessages } from '../../src/messages/operator.ts';
import { englishWordIn } from '../support/englishWords.ts';

/** Sample arguments for the message functions, by their parameter count (values as the API spells them). */
const SAMPLE_ARGUMENTS: Record<string, unknown[]> = {
  methodNotAllowed: ['GET, POST'],
  chargeNotPayable: ['paid'],
  recurrenceSandboxRefused: ['approved'],
  chargeNotPending: ['paid'],
  chargeNotRefundable: ['pending'],
  withdrawalNotPendingApproval: ['paid'],
  providerActionRefused: ['failed_unknown'],
  refundActionRefused: ['refunded'],
  chargebackExceedsRefundable: ['R$ 60,00'],
  infractionClosed: ['accepted'],
  withdrawalNotIndeterminate: ['paid'],
  withdrawalNotOverdue: ['2026-11-27T12:00:00.000Z'],
  recipientInWrongStatus: ['pending', 'approved'],
  holdNeedsPaidCharge: ['withdrawal', 'pending'],
  unknownEventFilter: ['pix.nada'],
  webhookUrlLimitReached: [10],
  resendQuotaExhausted: [20],
  operatorRoleNotAllowed: [['compliance', 'finance', 'admin']],
};

/** Every text of the catalogue, named by its path (functions called with the sample arguments). */
function textsOf(value: unknown, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') {
    const key = path.split('.').at(-1) ?? '';
    const args = SAMPLE_ARGUMENTS[key];
    if (!args) throw new Error(`no sample arguments for ${path}: add them to SAMPLE_ARGUMENTS`);
    return [[path, String((value as (...a: unknown[]) => unknown)(...args))]];
  }
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => textsOf(inner, path ? `${path}.${key}` : key));
  return [];
}

describe('the back office answers in Portuguese (issue 22, defect 11)', () => {
  it('has no English word in any message of src/messages/operator.ts', () => {
    const texts = textsOf(operatorMessages, '');
    expect(texts.length).toBeGreaterThan(50);
    const english = texts.flatMap(([path, text]) => {
      const word = englishWordIn(text);
      return word === undefined ? [] : [`${path}: "${word}" in ${text}`];
    });
    expect(english).toEqual([]);
  });
});
