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
import { operatorAuth } from './operatorAuth.ts';

type CreateAccountRequest = components['schemas']['CreateAccountRequest'];
type UpdateAccountRequest = components['schemas']['UpdateAccountRequest'];
type QueueOutcomeRequest = components['schemas']['QueueProviderOutcomeRequest'];

/** Validation failures of the back office are answered in the validator's own (English) words. */
const adminValidationErrors: ErrorRequestHandler = (error, _req, _res, next) => {
  const issues = (error as { status?: number; errors?: { path: string; message: string }[] }).errors;
  if ((error as { status?: number }).status === 400 && Array.isArray(issues)) {
    const text = issues.map((issue) => `${issue.path.replace(/^\//, '').replace(/\//g, '.')} ${issue.message}`).join('; ');
    return next(new ApiError(400, `Invalid request: ${text}.`));
  }
  next(error);
};

function accountChanges(body: UpdateAccountRequest): AccountUpdate {
  const changes: AccountUpdate = {};
  if (body.kycStatus !== undefined) changes.kyc_status = body.kycStatus;
  if (body.blocked !== undefined) changes.blocked = body.blocked;
  if (body.ipAllowlist !== undefined) changes.ip_allowlist = JSON.stringify(body.ipAllowlist);
  if (body.chargeMinCents !== undefined) changes.charge_min_cents = body.chargeMinCents;
  if (body.chargeMaxCents !== undefined) changes.charge_max_cents = body.chargeMaxCents;
  if (body.chargeFeeFixedCents !== undefined) changes.charge_fee_fixed_cents = body.chargeFeeFixedCents;
  if (body.chargeFeeBps !== undefined) changes.charge_fee_bps = body.chargeFeeBps;
  if (body.withdrawalFeeFixedCents !== undefined) changes.withdrawal_fee_fixed_cents = body.withdrawalFeeFixedCents;
  if (body.withdrawalFeeBps !== undefined) changes.withdrawal_fee_bps = body.withdrawalFeeBps;
  if (body.chargeRatePerHour !== undefined) changes.charge_rate_per_hour = body.chargeRatePerHour;
  return changes;
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

  router.use(routeGuard(spec));
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
    const body = (req.body ?? {}) as { payer?: PartyJson; endToEndId?: string };
    const paid = await payCharge(deps, req.params.transactionId, body);
    res.json(toApiTransaction(paid, 'single'));
  });

  router.post('/admin/v1/sandbox/charges/:transactionId/expire', async (req, res) => {
    res.json(toApiTransaction(await endCharge(deps, req.params.transactionId, 'expired'), 'single'));
  });

  router.post('/admin/v1/sandbox/charges/:transactionId/cancel', async (req, res) => {
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

  router.use(adminValidationErrors);
  return router;
}
