import { ApiError } from './errors.ts';
import { messages } from '../messages/merchant.ts';
import { ADMIN_LABELS, DASHBOARD_LABELS, labelOf } from '../messages/fields.ts';
import { describeFieldIssues, type FieldProblem } from './fieldProblems.ts';
import { normalizeDocumentType, stripDocument } from '../primitives/documents.ts';

/**
 * Turns express-openapi-validator's Ajv errors (English, one per failing keyword) into the one Portuguese
 * message the contract gives for that field of that operation.
 *
 * Each operation lists its fields in the contract's order; when several fields fail, the first one in
 * that order wins, so the answer is deterministic and names the field a merchant should fix first.
 */

export interface ValidatorIssue {
  path: string;
  message: string;
  errorCode?: string;
}

interface IssueContext {
  keyword: string;
  value: unknown;
  issue: ValidatorIssue;
  request: RequestView;
}

type Rule = { path: string; message: (context: IssueContext) => string };

const keywordOf = (issue: ValidatorIssue): string => issue.errorCode?.replace(/\.openapi\.validation$/, '') ?? '';

/**
 * A document number's schema failure: absent → the "required" text; too long → the length text of the
 * declared type (with the digits received); anything else (a forbidden character) → the characters text.
 */
function documentRule(
  typePath: string,
  texts: { missing: string; characters: string; cpfLength: (n: number) => string; cnpjLength: (n: number) => string },
): Rule['message'] {
  return ({ keyword, value, request }) => {
    if (keyword === 'required' || keyword === 'type' || keyword === 'minLength') return texts.missing;
    if (keyword !== 'maxLength') return texts.characters;
    const digits = stripDocument(String(value)).length;
    return documentTypeAt(request, typePath) === 'cnpj' ? texts.cnpjLength(digits) : texts.cpfLength(digits);
  };
}

/** A charge's customer (POST /v1/pix, /v1/due-charges): its name and document, the e-mail and phone texts given. */
function customerRules(texts: { email: string; phone: string }): Rule[] {
  return [
    { path: '/body/customer', message: () => messages.customerMissing },
    {
      path: '/body/customer/name',
      message: ({ keyword }) => (keyword === 'maxLength' ? messages.customerNameTooLong : messages.customerName),
    },
    { path: '/body/customer/email', message: () => texts.email },
    { path: '/body/customer/phone', message: () => texts.phone },
    { path: '/body/customer/document', message: () => messages.customerDocumentMissing },
    {
      path: '/body/customer/document/number',
      message: documentRule('/body/customer/document/type', {
        missing: messages.customerDocumentMissing,
        characters: messages.customerDocumentNumber,
        cpfLength: messages.customerCpfLength,
        cnpjLength: messages.customerCnpjLength,
      }),
    },
    {
      path: '/body/customer/document/type',
      message: ({ keyword, value }) =>
        keyword === 'required' ? messages.customerDocumentTypeMissing : messages.customerDocumentType(value ?? ''),
    },
  ];
}

const chargeRules: Rule[] = [
  { path: '/body/amountCents', message: () => messages.chargeAmount },
  ...customerRules({ email: messages.customerEmail, phone: messages.customerPhone }),
  { path: '/body/externalRef', message: () => messages.externalRef },
  { path: '/body/expiresInDays', message: ({ value }) => messages.expiresInDays(value ?? '') },
];

const withdrawalRules: Rule[] = [
  { path: '/body/amountCents', message: () => messages.withdrawAmount },
  {
    path: '/body/pixKey',
    message: ({ keyword, request }) => {
      if (keyword === 'maxLength') return messages.pixKeyTooLong;
      if (keyword === 'pattern') return messages.pixKeyInvalid(String(valueAt('/body/pixKeyType', request) ?? '').trim().toLowerCase());
      return messages.pixKeyRequired;
    },
  },
  { path: '/body/pixKeyType', message: ({ value }) => messages.pixKeyType(value ?? '') },
  { path: '/body/recipientId', message: () => messages.recipientIdInvalid },
  { path: '/body/description', message: () => messages.description },
  { path: '/body/externalRef', message: () => messages.externalRef },
];

const recipientRules: Rule[] = [
  {
    path: '/body/legalName',
    message: ({ keyword }) => (keyword === 'maxLength' ? messages.legalNameTooLong : messages.legalName),
  },
  {
    path: '/body/document',
    message: documentRule('/body/documentType', {
      missing: messages.recipientDocumentRequired,
      characters: messages.recipientDocumentCharacters,
      cpfLength: messages.recipientCpfLength,
      cnpjLength: messages.recipientCnpjLength,
    }),
  },
  { path: '/body/documentType', message: ({ value }) => messages.recipientDocumentType(value ?? '') },
  {
    path: '/body/pixKey',
    message: ({ keyword, request }) => {
      if (keyword === 'maxLength') return messages.pixKeyTooLong;
      if (keyword === 'pattern') return messages.pixKeyInvalid(String(valueAt('/body/pixKeyType', request) ?? '').trim().toLowerCase());
      return messages.pixKeyRequired;
    },
  },
  { path: '/body/pixKeyType', message: ({ value }) => messages.pixKeyType(value ?? '') },
  { path: '/body/label', message: () => messages.label },
];

/** The page and period parameters GET /v1/transactions and GET /v1/balance/entries share. */
const pageRules: Rule[] = [
  { path: '/query/limit', message: ({ value }) => messages.listLimit(value ?? '') },
  { path: '/query/cursor', message: () => messages.cursorInvalid },
  { path: '/query/createdFrom', message: ({ value }) => messages.createdFrom(value ?? '') },
  { path: '/query/createdTo', message: ({ value }) => messages.createdTo(value ?? '') },
];

const listRules: Rule[] = [
  { path: '/query/type', message: ({ value }) => messages.listType(value ?? '') },
  ...pageRules,
  { path: '/query/status', message: ({ value }) => messages.listStatus(value ?? '') },
  { path: '/query/externalRef', message: () => messages.externalRef },
  { path: '/query/staticQrCodeId', message: () => messages.staticQrCodeIdInvalid },
  { path: '/query/paymentLinkId', message: () => messages.paymentLinkIdQueryInvalid },
  { path: '/query/recurrenceId', message: () => messages.recurrenceIdInvalid },
];

const getRules: Rule[] = [{ path: '/params/id', message: () => messages.transactionIdInvalid }];

const qrCodeRules: Rule[] = [
  ...getRules,
  { path: '/query/format', message: ({ value }) => messages.qrFormat(value ?? '') },
  { path: '/query/size', message: ({ value }) => messages.qrSize(value ?? '') },
];

const refundRules: Rule[] = [
  ...getRules,
  { path: '/body/amountCents', message: () => messages.refundAmount },
  { path: '/body/externalRef', message: () => messages.externalRef },
  { path: '/body/description', message: () => messages.refundDescription },
];

/** The body of a charge with a due date, created or changed (the terms' own messages name the term). */
const dueChargeBodyRules: Rule[] = [
  { path: '/body/amountCents', message: () => messages.chargeAmount },
  { path: '/body/dueDate', message: ({ value }) => messages.dueDate(value ?? '') },
  { path: '/body/daysAfterDue', message: ({ value }) => messages.daysAfterDue(value ?? '') },
  ...customerRules({ email: messages.dueCustomerEmail, phone: messages.dueCustomerPhone }),
  ...['', '/street', '/city', '/state', '/postalCode'].map((tail) => ({ path: `/body/customer/address${tail}`, message: () => messages.dueCustomerAddress })),
  { path: '/body/description', message: () => messages.dueDescription },
  { path: '/body/externalRef', message: () => messages.externalRef },
  ...termRules('fine', messages.dueFine),
  ...termRules('interest', messages.dueInterest),
  ...termRules('discount', messages.dueDiscount),
  ...termRules('rebate', messages.dueRebate),
];

/** Every finding inside a term (its object, mode, value fields, dates) answers the term's one message. */
function termRules(term: string, message: string): Rule[] {
  const tails = ['', '/mode', '/amountCents', '/basisPoints', '/dates'];
  const dates = Array.from({ length: 4 }, (_, index) => ['', '/date', '/amountCents', '/basisPoints'].map((tail) => `/dates/${index}${tail}`)).flat();
  return [...tails, ...dates].map((tail) => ({ path: `/body/${term}${tail}`, message: () => message }));
}

const dueListRules: Rule[] = [
  { path: '/query/limit', message: ({ value }) => messages.listLimit(value ?? '') },
  { path: '/query/cursor', message: () => messages.cursorInvalid },
  { path: '/query/status', message: ({ value }) => messages.dueListStatus(value ?? '') },
  { path: '/query/dueFrom', message: ({ value }) => messages.dueFrom(value ?? '') },
  { path: '/query/dueTo', message: ({ value }) => messages.dueTo(value ?? '') },
];

/** /v1/static-qrcodes: the id's own message, the body's and the list's fields, the image's as a charge's. */
const staticIdRules: Rule[] = [{ path: '/params/id', message: () => messages.staticQrCodeIdInvalid }];
const staticQrCodeRules: Record<string, Rule[]> = {
  createStaticQrCode: [
    { path: '/body/amountCents', message: () => messages.chargeAmount },
    { path: '/body/description', message: () => messages.staticDescription },
    { path: '/body/externalRef', message: () => messages.externalRef },
  ],
  listStaticQrCodes: [
    { path: '/query/limit', message: ({ value }) => messages.listLimit(value ?? '') },
    { path: '/query/cursor', message: () => messages.cursorInvalid },
    { path: '/query/status', message: ({ value }) => messages.staticListStatus(value ?? '') },
  ],
  getStaticQrCode: staticIdRules,
  deactivateStaticQrCode: staticIdRules,
  getStaticQrCodeImage: [...staticIdRules, ...qrCodeRules.filter((rule) => rule.path !== '/params/id')],
};

/** /v1/payment-links: the id's own message, the body's and the list's fields. */
const paymentLinkIdRules: Rule[] = [{ path: '/params/linkId', message: () => messages.paymentLinkIdInvalid }];
const paymentLinkRules: Record<string, Rule[]> = {
  createPaymentLink: [
    { path: '/body/amountCents', message: () => messages.chargeAmount },
    { path: '/body/description', message: () => messages.paymentLinkDescription },
    { path: '/body/reusable', message: () => messages.paymentLinkReusable },
    { path: '/body/expiresInDays', message: () => messages.paymentLinkExpiresInDays },
    { path: '/body/externalRef', message: () => messages.externalRef },
  ],
  listPaymentLinks: [
    { path: '/query/limit', message: ({ value }) => messages.listLimit(value ?? '') },
    { path: '/query/cursor', message: () => messages.cursorInvalid },
  ],
  getPaymentLink: paymentLinkIdRules,
  deactivatePaymentLink: paymentLinkIdRules,
};

/** /v1/recurrences: the id's own message, the body's fields in the contract's order, the lists'. */
const recurrenceIdRules: Rule[] = [{ path: '/params/id', message: () => messages.recurrenceIdInvalid }];
const pageQueryRules: Rule[] = [
  { path: '/query/limit', message: ({ value }) => messages.listLimit(value ?? '') },
  { path: '/query/cursor', message: () => messages.cursorInvalid },
];
const recurrenceRules: Record<string, Rule[]> = {
  createRecurrence: [
    { path: '/body/payer', message: () => messages.recurrencePayer },
    { path: '/body/payer/name', message: () => messages.recurrencePayerName },
    { path: '/body/payer/document', message: () => messages.recurrencePayerDocumentMissing },
    {
      path: '/body/payer/document/number',
      message: documentRule('/body/payer/document/type', {
        missing: messages.recurrencePayerDocumentMissing,
        characters: messages.recurrencePayerDocumentNumber,
        cpfLength: messages.recurrencePayerCpfLength,
        cnpjLength: messages.recurrencePayerCnpjLength,
      }),
    },
    {
      path: '/body/payer/document/type',
      message: ({ keyword, value }) => (keyword === 'required' ? messages.recurrencePayerDocumentMissing : messages.recurrencePayerDocumentType(value ?? '')),
    },
    { path: '/body/contract', message: () => messages.recurrenceContract },
    { path: '/body/object', message: () => messages.recurrenceObject },
    { path: '/body/periodicity', message: ({ value }) => messages.recurrencePeriodicity(value ?? '') },
    { path: '/body/startDate', message: ({ value }) => messages.recurrenceStartDate(value ?? '') },
    { path: '/body/endDate', message: ({ value }) => messages.recurrenceEndDate(value ?? '') },
    { path: '/body/amountCents', message: () => messages.chargeAmount },
    { path: '/body/minimumAmountCents', message: () => messages.recurrenceMinimumAmount },
    { path: '/body/retryPolicy', message: ({ value }) => messages.recurrenceRetryPolicy(value ?? '') },
    { path: '/body/consent', message: () => messages.recurrenceConsent },
    { path: '/body/consent/journey', message: ({ keyword, value }) => (keyword === 'required' ? messages.recurrenceConsent : messages.recurrenceJourney(value ?? '')) },
    ...['', '/ispb', '/branch', '/account'].map((tail) => ({ path: `/body/consent/payerAccount${tail}`, message: () => messages.recurrencePayerAccount })),
    { path: '/body/consent/expiresInDays', message: () => messages.recurrenceConsentExpiresInDays },
    { path: '/body/consent/firstPaymentCents', message: () => messages.recurrenceFirstPayment },
    { path: '/body/externalRef', message: () => messages.externalRef },
  ],
  listRecurrences: [...pageQueryRules, { path: '/query/status', message: ({ value }) => messages.recurrenceListStatus(value ?? '') }],
  getRecurrence: recurrenceIdRules,
  cancelRecurrence: recurrenceIdRules,
  listRecurrenceCycles: [...recurrenceIdRules, ...pageQueryRules],
  sendRecurrenceCycle: [...recurrenceIdRules, { path: '/body/amountCents', message: () => messages.chargeAmount }],
};

const rulesByOperation: Record<string, Rule[]> = {
  ...staticQrCodeRules,
  ...recurrenceRules,
  ...paymentLinkRules,
  createDueCharge: dueChargeBodyRules,
  updateDueCharge: [...getRules, ...dueChargeBodyRules],
  listDueCharges: dueListRules,
  getDueCharge: [...getRules, { path: '/query/date', message: ({ value }) => messages.amountDueDate(value ?? '') }],
  cancelDueCharge: getRules,
  getDueChargeBatch: [{ path: '/params/batchId', message: () => messages.batchIdInvalid }],
  createCharge: chargeRules,
  createWithdrawal: withdrawalRules,
  createRecipient: recipientRules,
  listTransactions: listRules,
  getTransaction: getRules,
  getTransactionQrCode: qrCodeRules,
  createRefund: refundRules,
  listBalanceEntries: pageRules,
};

export interface RequestView {
  body: unknown;
  /** Raw query values as received (before coercion). */
  query: URLSearchParams;
  params: Record<string, string>;
}

/** Reads the received value a validator path points at, e.g. `/body/customer/document/type`. */
function valueAt(path: string, request: RequestView): unknown {
  const [, location, ...segments] = path.split('/');
  if (location === 'query') return segments[0] === undefined ? undefined : (request.query.get(segments[0]) ?? undefined);
  if (location === 'params') return segments[0] === undefined ? undefined : request.params[segments[0]];
  let current: unknown = location === 'body' ? request.body : undefined;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** The normalised document type the body declares at `path`, when it declares a valid one. */
function documentTypeAt(request: RequestView, path: string): 'cpf' | 'cnpj' | undefined {
  return normalizeDocumentType(valueAt(path, request));
}

function fieldName(path: string): string {
  return path.split('/').slice(2).join('.');
}

/** An issue that names a field the operation does not have (unknown body field or query parameter). */
function unknownFieldMessage(issue: ValidatorIssue): string | undefined {
  if (/^Unknown query parameter/.test(issue.message)) return messages.unknownQueryParameter(fieldName(issue.path));
  if (keywordOf(issue) === 'additionalProperties') return messages.unknownField(fieldName(issue.path));
  return undefined;
}

/** The message for a failed validation, and the request field it is about (when it is about one). */
interface Verdict {
  message: string;
  field?: string | undefined;
}

function pickValidationMessage(rules: Rule[], issues: ValidatorIssue[], request: RequestView, fallback: (issue: ValidatorIssue) => Verdict): Verdict {
  // Ajv reports a wrong body type at the root (`/body`): the body is not a JSON object.
  if (issues.some((issue) => issue.path === '/body' && keywordOf(issue) === 'type')) return { message: messages.bodyNotObject };
  for (const rule of rules) {
    const issue = issues.find((candidate) => candidate.path === rule.path && !unknownFieldMessage(candidate));
    if (issue) {
      const context = { keyword: keywordOf(issue), value: valueAt(issue.path, request), issue, request };
      return { message: rule.message(context), field: fieldName(issue.path) };
    }
  }
  for (const issue of issues) {
    const unknown = unknownFieldMessage(issue);
    if (unknown) return { message: unknown, field: fieldName(issue.path) };
  }
  const first = issues[0];
  return first ? fallback(first) : { message: messages.bodyNotObject };
}

const ITEM_PATH = /^\/body\/dueCharges\/(\d+)(\/.*)?$/;

/**
 * POST /v1/due-charge-batches: the batch's own fields, then the first item (by index) with a finding,
 * answered as POST /v1/due-charges answers that finding, prefixed by the item (`dueCharges[3]: ...`).
 */
function batchVerdict(issues: ValidatorIssue[], request: RequestView): Verdict | undefined {
  const own = pickValidationMessage(
    [
      { path: '/body/description', message: () => messages.batchDescription },
      { path: '/body/dueCharges', message: () => messages.batchSize },
    ],
    issues.filter((issue) => !ITEM_PATH.test(issue.path)),
    request,
    () => ({ message: '' }),
  );
  if (own.message !== '' && own.message !== messages.bodyNotObject) return own;
  const items = issues.flatMap((issue) => {
    const match = ITEM_PATH.exec(issue.path);
    return match ? [{ index: Number(match[1]), issue: { ...issue, path: `/body${match[2] ?? ''}` } }] : [];
  });
  if (items.length === 0) return own.message === '' ? undefined : own;
  const index = Math.min(...items.map((item) => item.index));
  const body = (request.body as { dueCharges?: unknown[] } | null)?.dueCharges?.[index];
  const verdict = pickValidationMessage(
    dueChargeBodyRules,
    items.filter((item) => item.index === index).map((item) => item.issue),
    { ...request, body },
    (issue) => ({ message: messages.invalidField(fieldName(issue.path)) }),
  );
  return { message: messages.batchItem(index, verdict.message), field: `dueCharges.${index}${verdict.field ? `.${verdict.field}` : ''}` };
}

export function translateValidationIssues(
  operationId: string | undefined,
  issues: ValidatorIssue[],
  request: RequestView,
): ApiError {
  if (operationId === 'createDueChargeBatch') {
    const verdict = batchVerdict(issues, request);
    if (verdict) return new ApiError(400, verdict.message);
  }
  const rules = (operationId && rulesByOperation[operationId]) || [];
  const verdict = pickValidationMessage(rules, issues, request, (issue) => ({ message: messages.invalidField(fieldName(issue.path)) }));
  return new ApiError(400, verdict.message);
}

/**
 * The dashboard's forms and the console's (`/dashboard/api/v1`, `/admin/v1`): every finding in Portuguese
 * with the field's label as the page shows it (`src/messages/fields.ts`, `./fieldProblems.ts`), never the
 * API's field name, and the field's name in `field` so the page shows the message beside it. (The
 * dashboard operations that are the merchant API's own, recipients and withdrawals, used to answer the
 * merchant API's texts, which name the API's fields: they answer the labels now too.)
 */

/** The Portuguese label of a dashboard form field ("Campo" when it has none). */
export function fieldLabel(field: string): string {
  return labelOf(field, DASHBOARD_LABELS);
}

/**
 * The dashboard's export dates: one text each, whichever rule of the date failed; the authenticator code of a
 * money action: the one text of a code that does not pass (missing, malformed, wrong or used).
 */
const totpRule: Rule = { path: '/body/totpCode', message: () => messages.invalidTotpCode };
const formRules: Record<string, Rule[]> = {
  createDashboardWithdrawal: [totpRule],
  createDashboardRefund: [totpRule],
  defendDashboardInfraction: [totpRule],
  exportDashboardTransactions: [
    { path: '/query/from', message: () => messages.exportFromInvalid },
    { path: '/query/to', message: () => messages.exportToInvalid },
  ],
  exportDashboardStatement: [
    { path: '/query/from', message: () => messages.exportFromInvalid },
    { path: '/query/to', message: () => messages.exportToInvalid },
  ],
};

const withField = (status: number, problem: FieldProblem): ApiError =>
  new ApiError(status, problem.message, problem.field === undefined || problem.field === '' ? {} : { extra: { field: problem.field } });

export function translateForForms(operationId: string | undefined, issues: ValidatorIssue[], request: RequestView): ApiError {
  const problems = describeFieldIssues(issues, DASHBOARD_LABELS);
  const [first] = problems;
  if (first && first.field === undefined) return withField(400, first);
  for (const rule of (operationId && formRules[operationId]) || []) {
    const issue = issues.find((candidate) => candidate.path === rule.path);
    if (issue) return withField(400, { message: rule.message({ keyword: keywordOf(issue), value: valueAt(issue.path, request), issue, request }), field: fieldName(issue.path) });
  }
  return withField(400, first ?? { message: messages.bodyNotObject });
}

/**
 * The console's (and the back-office API's) validation answer: every failing field's problem, one
 * sentence each, the first one's field in `field` (the console shows the message beside it).
 */
export function translateForOperators(issues: ValidatorIssue[]): ApiError {
  const problems = describeFieldIssues(issues, ADMIN_LABELS);
  const [first] = problems;
  return withField(400, { message: problems.map((problem) => problem.message).join(' ') || messages.bodyNotObject, field: first?.field });
}
