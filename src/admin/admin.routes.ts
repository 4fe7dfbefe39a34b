import express, { type ErrorRequestHandler, Router } from 'express';
import type { components } from '../../generated/admin-types.ts';
import { findAccount, listAccounts, listApiKeys, revokeApiKey } from '../accounts/account.repository.ts';
import { changeAccount, createAccount, issueApiKey } from '../accounts/account.service.ts';
import { endCharge, payCharge } from '../charges/charge.sandbox.ts';
import type { AccountUpdate, PartyJson } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { routeGuard } from '../http/routeGuard.ts';
import type { OpenApiDocument } from '../http/spec.ts';
import { openApiValidator } from '../http/validator.ts';
import { checkLedger, readBalance } from '../ledger/ledger.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { toAdminAccount, toAdminApiKey } from './admin.mapper.ts';
import { moneyOutAdminRoutes } from './moneyOut.routes.ts';
import { webhookAdminRoutes } from './webhooks.routes.ts';
import { operatorAuth } from './operatorAuth.ts';

type CreateAccountRequest = components['schemas']['CreateAccountRequest'];
type UpdateAccountRequest = components['schemas']['UpdateAccountRequest'];
type QueueOutcomeRequest = components['schemas']['QueueProviderOutcomeRequest'];

const ipAllowlistEntry = /^\/body\/ipAllowlist\/\d+$/;

/** One line per failing field, in the validator's own (English) words; alternatives collapsed. */
function describeIssues(issues: { path: string; message: string }[]): string {
  const byPath = new Map<string, string>();
  for (const issue of issues) {
    if (byPath.has(issue.path)) continue;
    byPath.set(
      issue.path,
      ipAllowlistEntry.test(issue.path) ? 'must be an IPv4 or IPv6 address or a CIDR range' : issue.message,
    );
  }
  return [...byPath].map(([path, message]) => `${path.replace(/^\//, '').replace(/\//g, '.')} ${message}`).join('; ');
}

/**
 * The back office answers in English (operators read it): validation failures in the validator's words,
 * transport failures (JSON, size, media type, method) with their own short texts.
 */
const adminErrors: ErrorRequestHandler = (error, _req, _res, next) => {
  if (error instanceof ApiError) return next(error);
  const failure = error as { status?: number; type?: string; errors?: { path: string; message: string }[] };
  if (failure.type === 'entity.parse.failed') return next(new ApiError(400, 'Malformed JSON body.'));
  if ((error as { code?: string }).code === '22021' || (error as { code?: string }).code === '22P05') {
    return next(new ApiError(400, 'Request contains characters that cannot be stored (NUL).'));
  }
  if (failure.type === 'entity.too.large' || failure.status === 413) {
    return next(new ApiError(413, 'Request body exceeds 64 KB.'));
  }
  if (failure.status === 415) return next(new ApiError(415, 'Content-Type must be application/json.'));
  if (failure.status === 400 && Array.isArray(failure.errors)) {
    return next(new ApiError(400, `Invalid request: ${describeIssues(failure.errors)}.`));
  }
  next(error);
};

const englishRouteTexts = {
  notFound: 'Route not found.',
  methodNotAllowed: (allowed: string) => `Method not allowed on this route. Allowed: ${allowed}.`,
};

/** PATCH body field → column, for the settings that are copied as they are. */
const SETTINGS = {
  kycStatus: 'kyc_status',
  blocked: 'blocked',
  chargeMinCents: 'charge_min_cents',
  chargeMaxCents: 'charge_max_cents',
  chargeFeeFixedCents: 'charge_fee_fixed_cents',
  chargeFeeBps: 'charge_fee_bps',
  withdrawalFeeFixedCents: 'withdrawal_fee_fixed_cents',
  withdrawalFeeBps: 'withdrawal_fee_bps',
  chargeRatePerHour: 'charge_rate_per_hour',
  withdrawalMaxCents: 'withdrawal_max_cents',
  withdrawalDailyCapCents: 'withdrawal_daily_cap_cents',
  withdrawalMonthlyCapCents: 'withdrawal_monthly_cap_cents',
  withdrawalApprovalMode: 'withdrawal_approval_mode',
  withdrawalApprovalThresholdCents: 'withdrawal_approval_threshold_cents',
  withdrawalsPerSecond: 'withdrawals_per_second',
  withdrawalsPerMinute: 'withdrawals_per_minute',
  withdrawalsPerHour: 'withdrawals_per_hour',
  recipientLimit: 'recipient_limit',
  recipientsPerHour: 'recipients_per_hour',
} as const satisfies Partial<Record<keyof UpdateAccountRequest, keyof AccountUpdate>>;

function accountChanges(body: UpdateAccountRequest): AccountUpdate {
  const changes: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(SETTINGS)) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined) changes[column] = value;
  }
  // JSON columns are written as text.
  if (body.ipAllowlist !== undefined) changes.ip_allowlist = JSON.stringify(body.ipAllowlist);
  const keyTypes = (body as { withdrawalKeyTypes?: string[] }).withdrawalKeyTypes;
  if (keyTypes !== undefined) changes.withdrawal_key_types = JSON.stringify(keyTypes);
  return changes as AccountUpdate;
}

function simulated(deps: Deps) {
  if (!deps.simulatedProvider) throw new ApiError(409, 'Sandbox provider actions need the simulated PSP.');
  return deps.simulatedProvider;
}

/** The back office under /admin/v1: operator token, then validation against openapi/admin. */
export function adminApi(deps: Deps, spec: OpenApiDocument, operatorToken: string): Router {
  const router = Router();
  const now = () => new Date(deps.clock.now());
  const requireAccount = async (accountId: string) => {
    const account = await findAccount(deps.db, accountId);
    if (!account) throw new ApiError(404, 'Account not found.');
    return account;
  };

  router.use(routeGuard(spec, englishRouteTexts));
  router.use(operatorAuth(operatorToken));
  router.use(express.json({ limit: '64kb', strict: false }));
  router.use(openApiValidator(spec, deps.config.validateResponses));

  router.post('/admin/v1/accounts', async (req, res) => {
    const body = req.body as CreateAccountRequest;
    const account = await createAccount(deps.db, body, now());
    res.status(201).json(toAdminAccount(account));
  });

  router.get('/admin/v1/accounts', async (_req, res) => {
    const accounts = await listAccounts(deps.db);
    res.json({ accounts: accounts.map(toAdminAccount), count: accounts.length });
  });

  router.get('/admin/v1/accounts/:accountId', async (req, res) => {
    res.json(toAdminAccount(await requireAccount(req.params.accountId)));
  });

  router.patch('/admin/v1/accounts/:accountId', async (req, res) => {
    const body = req.body as UpdateAccountRequest;
    const current = await requireAccount(req.params.accountId);
    const min = body.chargeMinCents !== undefined ? body.chargeMinCents : current.charge_min_cents;
    const max = body.chargeMaxCents !== undefined ? body.chargeMaxCents : current.charge_max_cents;
    if (min !== null && max !== null && max < min) throw new ApiError(400, 'chargeMaxCents must be >= chargeMinCents.');
    const updated = await changeAccount(deps.db, current.id, accountChanges(body), now());
    if (!updated) throw new ApiError(404, 'Account not found.');
    deps.authenticator.invalidateAccount(updated.id);
    res.json(toAdminAccount(updated));
  });

  router.post('/admin/v1/accounts/:accountId/api-keys', async (req, res) => {
    const account = await requireAccount(req.params.accountId);
    const label = (req.body as { label?: string } | undefined)?.label ?? null;
    const issued = await issueApiKey(deps.db, account, label, now());
    res.status(201).json({ ...toAdminApiKey(issued.row), apiKey: issued.secret });
  });

  router.get('/admin/v1/accounts/:accountId/api-keys', async (req, res) => {
    const account = await requireAccount(req.params.accountId);
    const keys = await listApiKeys(deps.db, account.id);
    res.json({ apiKeys: keys.map(toAdminApiKey), count: keys.length });
  });

  router.post('/admin/v1/accounts/:accountId/api-keys/:keyId/revoke', async (req, res) => {
    const key = await revokeApiKey(deps.db, req.params.accountId, req.params.keyId, now());
    if (!key) throw new ApiError(404, 'API key not found.');
    deps.authenticator.invalidateAccount(key.account_id);
    res.json(toAdminApiKey(key));
  });

  router.get('/admin/v1/accounts/:accountId/balance', async (req, res) => {
    const account = await requireAccount(req.params.accountId);
    const balance = await readBalance(deps.db, account.id);
    const violations = await checkLedger(deps.db, account.id);
    res.json({
      availableCents: balance.availableCents,
      heldCents: balance.heldCents,
      reservedCents: balance.reservedCents,
      withdrawableCents: balance.withdrawableCents,
      ledgerConsistent: violations.length === 0,
      violations: violations.map((violation) => violation.problem),
    });
  });

  router.get('/admin/v1/accounts/:accountId/events', async (req, res) => {
    const account = await requireAccount(req.params.accountId);
    const limit = req.query.limit === undefined ? 50 : Number(req.query.limit);
    const events = await deps.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('account_id', '=', account.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    res.json({
      events: events.map((event) => ({
        eventId: event.id,
        event: event.event,
        transactionId: event.transaction_id,
        createdAt: event.created_at.getTime(),
        payload: event.payload,
      })),
      count: events.length,
    });
  });

  router.post('/admin/v1/sandbox/charges/:transactionId/pay', async (req, res) => {
    simulated(deps);
    const body = (req.body ?? {}) as { payer?: PartyJson; endToEndId?: string };
    const paid = await payCharge(deps, req.params.transactionId, body);
    res.json(toApiTransaction(paid, 'single'));
  });

  router.post('/admin/v1/sandbox/charges/:transactionId/expire', async (req, res) => {
    simulated(deps);
    res.json(toApiTransaction(await endCharge(deps, req.params.transactionId, 'expired'), 'single'));
  });

  router.post('/admin/v1/sandbox/charges/:transactionId/cancel', async (req, res) => {
    simulated(deps);
    res.json(toApiTransaction(await endCharge(deps, req.params.transactionId, 'cancelled'), 'single'));
  });

  router.post('/admin/v1/sandbox/provider/outcomes', (req, res) => {
    const body = req.body as QueueOutcomeRequest;
    const provider = simulated(deps);
    provider.queueOutcome(body.operation, body.outcome, body.count ?? 1);
    res.json({ pending: provider.pendingOutcomes() });
  });

  router.delete('/admin/v1/sandbox/provider/outcomes', (_req, res) => {
    const provider = simulated(deps);
    provider.clearOutcomes();
    res.json({ pending: provider.pendingOutcomes() });
  });

  router.use(moneyOutAdminRoutes(deps, () => simulated(deps)));
  router.use(webhookAdminRoutes(deps, () => simulated(deps)));
  router.use(adminErrors);
  return router;
}
