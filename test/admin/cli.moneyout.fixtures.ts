/** Canned answers of the back office's money-out operations for the CLI tests, typed by the generated types. */
import type {
  AdminRecipient,
  AdminRecipientList,
  AdminWithdrawalList,
  DeactivatedRecipient,
  Hold,
  HoldList,
  LedgerCheck,
  ReconcileResult,
  Transaction,
  WithdrawalAlertList,
} from '../../src/cli/types.ts';
import { ACCOUNT_ID, paidCharge } from './cli.fixtures.ts';

export const RECIPIENT_ID = '5c8e1a4f7b2d0c6e9a3f1b8d';
export const WITHDRAWAL_ID = 'tx_2e5a8c1f4b7d0e3a6c9f2b5d';
export const CANCELLED_ID = 'tx_7b0e3a6d9c2f5b8e1a4d7c0f';
export const HOLD_ID = 'hold_9d2e7a1c4b8f03e6d5a2c7b1';

export const pendingRecipient: AdminRecipient = {
  recipientId: RECIPIENT_ID,
  legalName: 'Distribuidora Beta S.A.',
  document: '13723705000189',
  documentType: 'cnpj',
  pixKey: 'financeiro@distribuidorabeta.com.br',
  pixKeyType: 'email',
  label: 'Fornecedor de embalagens',
  status: 'pending_review',
  reviewNote: null,
  createdAt: 1795010000000,
  updatedAt: 1795010000000,
  approvedAt: null,
  reviewedAt: null,
};

export const activeRecipient: AdminRecipient = {
  ...pendingRecipient,
  status: 'active',
  updatedAt: 1795012000000,
  approvedAt: 1795012000000,
  reviewedAt: 1795012000000,
};

export const rejectedRecipient: AdminRecipient = {
  ...pendingRecipient,
  status: 'rejected',
  reviewNote: 'Documento divergente.',
  updatedAt: 1795012000000,
  reviewedAt: 1795012000000,
};

export const recipientList: AdminRecipientList = { recipients: [pendingRecipient], count: 1 };

export const deactivated: DeactivatedRecipient = {
  recipient: { ...activeRecipient, status: 'deactivated', reviewNote: 'Alerta de AML.', reviewedAt: 1795200000000 },
  cancelledWithdrawals: [CANCELLED_ID],
};

/** A third-party withdrawal as the merchant sees it, after its approval. */
export const processingWithdrawal: Transaction = {
  transactionId: WITHDRAWAL_ID,
  type: 'withdrawal',
  amountCents: 250000,
  feeCents: 100,
  netCents: 250100,
  status: 'processing',
  externalRef: 'saque-2026-0050',
  pixPayload: null,
  paidAt: null,
  createdAt: 1795184400000,
  updatedAt: 1795196700400,
};

export const rejectedWithdrawal: Transaction = {
  ...processingWithdrawal,
  status: 'failed',
  paidAt: 1795196710000,
  updatedAt: 1795196710000,
  refusedCode: 'REJECTED_BY_COMPLIANCE',
  refusedReason: 'Saque recusado na análise de compliance.',
};

export const settledWithdrawal: Transaction = {
  ...processingWithdrawal,
  status: 'paid',
  paidAt: 1795196705000,
  updatedAt: 1795196705000,
  endToEndId: 'E99999008202611201745Hq7Lm2Np5Rt',
  beneficiary: {
    name: 'Distribuidora Beta S.A.',
    document: '13723705000189',
    documentType: 'cnpj',
    bankAccount: { ispb: '99999004', branch: '0001', account: '731904-2' },
  },
};

export const returnedWithdrawal: Transaction = {
  ...settledWithdrawal,
  status: 'partially_refunded',
  updatedAt: 1795270000000,
  refundEndToEndId: 'D99999004202611211406Zx8Cv3Bn6Mk',
  refundedCents: 40000,
};

export const withdrawalList: AdminWithdrawalList = {
  withdrawals: [
    {
      ...processingWithdrawal,
      status: 'pending_approval',
      updatedAt: 1795184400000,
      accountId: ACCOUNT_ID,
      pixKey: 'financeiro@distribuidorabeta.com.br',
      pixKeyType: 'email',
      recipientId: RECIPIENT_ID,
      description: 'Pagamento fornecedor NF 4521',
    },
  ],
  count: 1,
};

export const alerts: WithdrawalAlertList = {
  alerts: [
    {
      alertId: 42,
      accountId: ACCOUNT_ID,
      transactionId: WITHDRAWAL_ID,
      recipientId: RECIPIENT_ID,
      amountCents: 250000,
      pixKeyType: 'email',
      createdAt: 1795184400000,
    },
  ],
  count: 1,
};

export const activeHold: Hold = {
  holdId: HOLD_ID,
  accountId: ACCOUNT_ID,
  transactionId: paidCharge.transactionId,
  amountCents: 1000,
  reason: 'med',
  note: 'MED 2026-000481',
  status: 'active',
  createdAt: 1795190000000,
  releasedAt: null,
};

export const releasedHold: Hold = { ...activeHold, status: 'released', releasedAt: 1795270000000 };

export const holdList: HoldList = { holds: [activeHold], count: 1 };

export const chargedBack: Transaction = { ...paidCharge, status: 'partially_refunded', refundedCents: 600, updatedAt: 1795280000000 };

export const consistentLedger: LedgerCheck = { consistent: true, violations: [] };

export const inconsistentLedger: LedgerCheck = {
  consistent: false,
  violations: [{ accountId: ACCOUNT_ID, problem: 'available 1523450 != entries 1522450' }],
};

export const reconciled: ReconcileResult = { examined: 2 };
