/** accounts:create, accounts:list, accounts:show, accounts:update. */
import { boolean, integer, integerOrDefault, integerOrNone, list, listOf, oneOf } from '../args.ts';
import { arg, defineCommand, required, type CommandInput } from '../command.ts';
import { usageError } from '../errors.ts';
import { segment } from '../http.ts';
import { renderAccount, renderAccountList } from '../render.ts';
import type {
  Account,
  AccountList,
  CreateAccountRequest,
  KycStatus,
  PixKeyType,
  UpdateAccountRequest,
  WithdrawalApprovalMode,
} from '../types.ts';

export const KYC_STATUSES: Readonly<Record<KycStatus, true>> = { pending: true, approved: true, rejected: true };
const PIX_KEY_TYPES: Readonly<Record<PixKeyType, true>> = { cpf: true, cnpj: true, email: true, phone: true, evp: true };
const APPROVAL_MODES: Readonly<Record<WithdrawalApprovalMode, true>> = { automatic: true, manual: true };

const accountPath = (input: CommandInput) => `/admin/v1/accounts/${segment(arg(input, 0))}`;

export const createAccount = defineCommand<Account>({
  name: 'accounts:create',
  summary: 'Create a merchant account (KYC pending unless --kyc is given).',
  args: [],
  options: [
    { name: 'legal-name', value: '<text>', required: true, help: 'legal name of the company, 2 to 120 characters' },
    { name: 'cpf', value: '<cpf>', required: true, help: "responsible party's CPF, formatted or not" },
    { name: 'cnpj', value: '<cnpj>', required: true, help: "company's CNPJ, formatted or not" },
    { name: 'email', value: '<e-mail>', required: true, help: "responsible party's e-mail" },
    { name: 'kyc', value: '<pending|approved|rejected>', help: 'initial KYC status (default pending)' },
  ],
  request(input) {
    const kyc = input.options['kyc'];
    const body: CreateAccountRequest = {
      legalName: required(input, 'legal-name'),
      responsibleCpf: required(input, 'cpf'),
      companyCnpj: required(input, 'cnpj'),
      email: required(input, 'email'),
      // The contract's default, sent explicitly so the body matches the generated type either way.
      kycStatus: kyc === undefined ? 'pending' : oneOf('kyc', kyc, KYC_STATUSES),
    };
    return { method: 'POST', path: '/admin/v1/accounts', body };
  },
  render: renderAccount,
});

export const listAccounts = defineCommand<AccountList>({
  name: 'accounts:list',
  summary: 'List every account.',
  args: [],
  options: [],
  request: () => ({ method: 'GET', path: '/admin/v1/accounts' }),
  render: renderAccountList,
});

export const showAccount = defineCommand<Account>({
  name: 'accounts:show',
  summary: 'Show one account with all its settings.',
  args: ['accountId'],
  options: [],
  request: (input) => ({ method: 'GET', path: accountPath(input) }),
  render: renderAccount,
});

/** Each update option, the body property it sets, and how its text becomes the property's value. */
const UPDATE_OPTIONS: ReadonlyArray<{
  option: string;
  property: keyof UpdateAccountRequest;
  value: string;
  help: string;
  parse: (option: string, raw: string) => UpdateAccountRequest[keyof UpdateAccountRequest];
}> = [
  { option: 'kyc', property: 'kycStatus', value: '<pending|approved|rejected>', help: 'KYC status', parse: (o, raw) => oneOf(o, raw, KYC_STATUSES) },
  { option: 'blocked', property: 'blocked', value: '<true|false>', help: 'suspend (true) or reinstate (false)', parse: boolean },
  { option: 'ip-allowlist', property: 'ipAllowlist', value: '<ip,cidr,...|none>', help: 'replace the IP allowlist; none (or "") removes it', parse: (_o, raw) => list(raw) },
  { option: 'charge-min', property: 'chargeMinCents', value: '<N|default>', help: 'smallest charge in cents (>= 100)', parse: integerOrDefault },
  { option: 'charge-max', property: 'chargeMaxCents', value: '<N|default>', help: 'largest charge in cents', parse: integerOrDefault },
  { option: 'charge-fee-fixed', property: 'chargeFeeFixedCents', value: '<N>', help: 'fixed charge fee in cents', parse: integer },
  { option: 'charge-fee-bps', property: 'chargeFeeBps', value: '<N>', help: 'proportional charge fee, 0-10000 bps', parse: integer },
  { option: 'withdrawal-fee-fixed', property: 'withdrawalFeeFixedCents', value: '<N>', help: 'fixed withdrawal fee in cents', parse: integer },
  { option: 'withdrawal-fee-bps', property: 'withdrawalFeeBps', value: '<N>', help: 'proportional withdrawal fee, 0-10000 bps', parse: integer },
  { option: 'charge-rate', property: 'chargeRatePerHour', value: '<N>', help: 'charges allowed per UTC hour', parse: integer },
  { option: 'withdrawal-key-types', property: 'withdrawalKeyTypes', value: '<cpf,cnpj,email,phone,evp|none>', help: 'PIX key types allowed for withdrawals; none refuses every withdrawal', parse: (o, raw) => listOf(o, raw, PIX_KEY_TYPES) },
  { option: 'withdrawal-max', property: 'withdrawalMaxCents', value: '<N>', help: 'largest withdrawal in cents (>= 100)', parse: integer },
  { option: 'daily-cap', property: 'withdrawalDailyCapCents', value: '<N>', help: 'cents withdrawable per São Paulo day', parse: integer },
  { option: 'monthly-cap', property: 'withdrawalMonthlyCapCents', value: '<N>', help: 'cents withdrawable per São Paulo month', parse: integer },
  { option: 'approval-mode', property: 'withdrawalApprovalMode', value: '<automatic|manual>', help: 'whether every withdrawal waits for approval', parse: (o, raw) => oneOf(o, raw, APPROVAL_MODES) },
  { option: 'approval-threshold', property: 'withdrawalApprovalThresholdCents', value: '<N|none>', help: 'automatic mode: withdrawals above N cents wait for approval; none: no threshold', parse: integerOrNone },
  { option: 'withdrawals-per-second', property: 'withdrawalsPerSecond', value: '<N>', help: 'withdrawals allowed per second', parse: integer },
  { option: 'withdrawals-per-minute', property: 'withdrawalsPerMinute', value: '<N>', help: 'withdrawals allowed per minute', parse: integer },
  { option: 'withdrawals-per-hour', property: 'withdrawalsPerHour', value: '<N>', help: 'withdrawals allowed per UTC hour', parse: integer },
  { option: 'recipient-limit', property: 'recipientLimit', value: '<N>', help: 'ceiling of active + pending_review recipients', parse: integer },
  { option: 'recipients-per-hour', property: 'recipientsPerHour', value: '<N>', help: 'recipient registrations per UTC hour', parse: integer },
];

export const updateAccount = defineCommand<Account>({
  name: 'accounts:update',
  summary: "Change an account's settings (only the options given).",
  args: ['accountId'],
  options: UPDATE_OPTIONS.map(({ option, value, help }) => ({ name: option, value, help })),
  request(input) {
    const body: Record<string, unknown> = {};
    for (const { option, property, parse } of UPDATE_OPTIONS) {
      const raw = input.options[option];
      if (raw !== undefined) body[property] = parse(option, raw);
    }
    if (Object.keys(body).length === 0) throw usageError('Nothing to update: give at least one option.');
    return { method: 'PATCH', path: accountPath(input), body: body as UpdateAccountRequest };
  },
  render: renderAccount,
});
