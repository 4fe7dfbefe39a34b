/** Canned answers of the back office for the CLI tests (accounts, keys, charges), typed by the generated types. */
import type {
  Account,
  AccountBalance,
  AccountEventList,
  AccountList,
  ApiKey,
  ApiKeyCreated,
  ApiKeyList,
  ProviderOutcomes,
  Transaction,
} from '../../src/cli/types.ts';

export const ACCOUNT_ID = 'acc_3f9c0a5e1b2d4c6e8f0a1b2c';
export const KEY_ID = 'key_7d2e9a41c0b35f68e1a4c9d2';
export const TRANSACTION_ID = 'tx_6a1f3c9e2b7d4058c1e9a2f4';
export const API_KEY_SECRET = 'pixg_207d28c47238e89eee33d9249bdbebeb80dd9b6aab9aed05dff24fe783cbc0c0';

export const account: Account = {
  accountId: ACCOUNT_ID,
  legalName: 'Loja Exemplo Ltda',
  responsibleCpf: '52998224725',
  companyCnpj: '11222333000181',
  email: 'financeiro@lojaexemplo.com.br',
  kycStatus: 'approved',
  blocked: false,
  ipAllowlist: [],
  chargeMinCents: null,
  chargeMaxCents: null,
  chargeFeeFixedCents: 0,
  chargeFeeBps: 99,
  withdrawalFeeFixedCents: 100,
  withdrawalFeeBps: 0,
  chargeRatePerHour: 200,
  withdrawalKeyTypes: ['cpf', 'cnpj', 'email', 'phone', 'evp'],
  withdrawalMaxCents: 5000000,
  withdrawalDailyCapCents: 10000000,
  withdrawalMonthlyCapCents: 100000000,
  withdrawalApprovalMode: 'automatic',
  withdrawalApprovalThresholdCents: null,
  withdrawalsPerSecond: 1,
  withdrawalsPerMinute: 2,
  withdrawalsPerHour: 10,
  recipientLimit: 10,
  recipientsPerHour: 60,
  createdAt: 1795000000000,
  updatedAt: 1795000000000,
};

export const accountList: AccountList = { accounts: [account], count: 1 };

export const keyCreated: ApiKeyCreated = {
  keyId: KEY_ID,
  apiKey: API_KEY_SECRET,
  publicPrefix: API_KEY_SECRET.slice(0, 16),
  label: 'Loja virtual',
  createdAt: 1795001000000,
};

export const revokedKey: ApiKey = {
  keyId: KEY_ID,
  publicPrefix: API_KEY_SECRET.slice(0, 16),
  label: 'Loja virtual',
  createdAt: 1795001000000,
  revokedAt: 1795190000000,
};

export const keyList: ApiKeyList = { apiKeys: [{ ...revokedKey, revokedAt: null }], count: 1 };

export const balance: AccountBalance = {
  availableCents: 1523450,
  heldCents: 25990,
  reservedCents: 250100,
  withdrawableCents: 1247360,
  ledgerConsistent: false,
  violations: ['available 1523450 != entries 1522450'],
};

export const paidCharge: Transaction = {
  transactionId: TRANSACTION_ID,
  type: 'pix_in',
  amountCents: 1000,
  feeCents: 10,
  netCents: 990,
  status: 'paid',
  pixPayload: '00020101021226710014br.gov.bcb.pix',
  expiresAt: 1795356192,
  paidAt: 1795183500000,
  createdAt: 1795183392345,
  updatedAt: 1795183500000,
  endToEndId: 'E99999004202611201405k3Xq9Zt2LmP',
  payer: {
    name: 'PAGADOR SANDBOX',
    document: '52998224725',
    documentType: 'cpf',
    bankAccount: { ispb: '99999004', branch: '0001', account: '482913-5' },
  },
};

export const events: AccountEventList = {
  events: [
    {
      eventId: 'evt_3b8e0c5d71a94f26e8d0b4c1',
      event: 'transaction.paid',
      transactionId: TRANSACTION_ID,
      createdAt: 1795183500000,
      payload: {},
    },
  ],
  count: 1,
};

export const outcomes: ProviderOutcomes = {
  pending: { sendWithdrawal: [{ outcome: 'timeout', remaining: 2 }] },
};

export const noOutcomes: ProviderOutcomes = { pending: {} };
