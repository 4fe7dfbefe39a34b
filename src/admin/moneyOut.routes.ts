import { Router } from 'express';
import type { HoldReason, HoldRow, PartyJson, RecipientRow, RecipientStatus, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { requireAccountId } from './accountLookup.ts';
import { chargebackHold, placeHold, releaseHold } from '../holds/hold.service.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { approveRecipient, deactivateRecipient, rejectRecipient } from '../recipients/recipient.review.ts';
import type { SimulatedProvider } from '../provider/simulated.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { approveWithdrawal, cancelWithdrawal, rejectWithdrawal } from '../withdrawals/withdrawal.review.ts';
import { reconcileWithdrawals, syncWithdrawal } from '../withdrawals/withdrawal.settlement.ts';
import { findTransactionById } from '../transactions/transaction.repository.ts';

const ms = (date: Date | null) => (date ? date.getTime() : null);

export function toAdminRecipient(row: RecipientRow) {
  return {
    recipientId: row.id,
    legalName: row.legal_name,
    document: row.document,
    documentType: row.document_type,
    pixKey: row.pix_key,
    pixKeyType: row.pix_key_type,
    label: row.label,
    status: row.status,
    reviewNote: row.review_note,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
    approvedAt: ms(row.approved_at),
    reviewedAt: ms(row.reviewed_at),
  };
}

export function toAdminHold(row: HoldRow) {
  return {
    holdId: row.id,
    accountId: row.account_id,
    transactionId: row.transaction_id,
    amountCents: row.amount_cents,
    reason: row.reason,
    note: row.note,
    status: row.status,
    createdAt: row.created_at.getTime(),
    releasedAt: ms(row.released_at),
  };
}

function toAdminWithdrawal(row: TransactionRow) {
  return {
    ...toApiTransaction(row, 'single'),
    accountId: row.account_id,
    pixKey: row.pix_key ?? '',
    pixKeyType: row.pix_key_type ?? '',
    recipientId: row.recipient_id,
    description: row.description,
  };
}

const limitOf = (raw: unknown) => (raw === undefined ? 50 : Number(raw));

/**
 * Back office for money out: recipient reviews, withdrawal approvals, third-party alerts, holds, the
 * simulated PSP's settlement actions and the ledger check. Mounted inside the admin router (token and
 * validation already applied).
 */
export function moneyOutAdminRoutes(deps: Deps, simulated: () => SimulatedProvider): Router {
  const router = Router();

  const requireAccount = (accountId: string) => requireAccountId(deps, accountId);

  router.get('/admin/v1/accounts/:accountId/recipients', async (req, res) => {
    await requireAccount(req.params.accountId);
    let query = deps.db.selectFrom('recipients').selectAll().where('account_id', '=', req.params.accountId);
    if (req.query.status !== undefined) query = query.where('status', '=', req.query.status as RecipientStatus);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    res.json({ recipients: rows.map(toAdminRecipient), count: rows.length });
  });

  router.post('/admin/v1/accounts/:accountId/recipients/:recipientId/approve', async (req, res) => {
    res.json(toAdminRecipient(await approveRecipient(deps, req.params.accountId, req.params.recipientId)));
  });

  router.post('/admin/v1/accounts/:accountId/recipients/:recipientId/reject', async (req, res) => {
    const note = (req.body as { note?: string } | undefined)?.note;
    res.json(toAdminRecipient(await rejectRecipient(deps, req.params.accountId, req.params.recipientId, note)));
  });

  router.post('/admin/v1/accounts/:accountId/recipients/:recipientId/deactivate', async (req, res) => {
    const note = (req.body as { note?: string } | undefined)?.note;
    const result = await deactivateRecipient(deps, req.params.accountId, req.params.recipientId, note);
    res.json({ recipient: toAdminRecipient(result.recipient), cancelledWithdrawals: result.cancelledWithdrawals });
  });

  router.get('/admin/v1/withdrawals', async (req, res) => {
    let query = deps.db
      .selectFrom('transactions')
      .selectAll()
      .where('type', '=', 'withdrawal')
      .where('status', 'not in', ['initiating', 'aborted']);
    if (req.query.status !== undefined) query = query.where('status', '=', req.query.status as TransactionRow['status']);
    if (req.query.accountId !== undefined) query = query.where('account_id', '=', String(req.query.accountId));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitOf(req.query.limit)).execute();
    res.json({ withdrawals: rows.map(toAdminWithdrawal), count: rows.length });
  });

  router.post('/admin/v1/withdrawals/:transactionId/approve', async (req, res) => {
    res.json(toApiTransaction(await approveWithdrawal(deps, req.params.transactionId), 'single'));
  });

  router.post('/admin/v1/withdrawals/:transactionId/reject', async (req, res) => {
    const reason = (req.body as { reason?: string } | undefined)?.reason;
    res.json(toApiTransaction(await rejectWithdrawal(deps, req.params.transactionId, reason), 'single'));
  });

  router.post('/admin/v1/withdrawals/:transactionId/cancel', async (req, res) => {
    const reason = (req.body as { reason?: string } | undefined)?.reason;
    const refusal = reason === undefined ? undefined : { code: 'CANCELLED_BY_REQUEST', reason };
    res.json(toApiTransaction(await cancelWithdrawal(deps, req.params.transactionId, refusal), 'single'));
  });

  router.get('/admin/v1/withdrawal-alerts', async (req, res) => {
    let query = deps.db.selectFrom('withdrawal_alerts').selectAll();
    if (req.query.accountId !== undefined) query = query.where('account_id', '=', String(req.query.accountId));
    const rows = await query.orderBy('id', 'desc').limit(limitOf(req.query.limit)).execute();
    res.json({
      alerts: rows.map((row) => ({
        alertId: row.id,
        accountId: row.account_id,
        transactionId: row.transaction_id,
        recipientId: row.recipient_id,
        amountCents: row.amount_cents,
        pixKeyType: row.pix_key_type,
        createdAt: row.created_at.getTime(),
      })),
      count: rows.length,
    });
  });

  router.post('/admin/v1/accounts/:accountId/holds', async (req, res) => {
    const accountId = await requireAccount(req.params.accountId);
    const body = req.body as { amountCents: number; reason: HoldReason; transactionId?: string; note?: string };
    res.status(201).json(toAdminHold(await placeHold(deps, accountId, body)));
  });

  router.get('/admin/v1/accounts/:accountId/holds', async (req, res) => {
    await requireAccount(req.params.accountId);
    let query = deps.db.selectFrom('holds').selectAll().where('account_id', '=', req.params.accountId);
    if (req.query.status !== undefined) query = query.where('status', '=', req.query.status as HoldRow['status']);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    res.json({ holds: rows.map(toAdminHold), count: rows.length });
  });

  router.post('/admin/v1/accounts/:accountId/holds/:holdId/release', async (req, res) => {
    res.json(toAdminHold(await releaseHold(deps, req.params.accountId, req.params.holdId)));
  });

  router.post('/admin/v1/accounts/:accountId/holds/:holdId/chargeback', async (req, res) => {
    const amount = (req.body as { amountCents?: number } | undefined)?.amountCents;
    res.json(toApiTransaction(await chargebackHold(deps, req.params.accountId, req.params.holdId, amount), 'single'));
  });

  /** Applies a sandbox change at the simulated PSP, then reconciles the withdrawal with it at once. */
  async function sandboxAction(transactionId: string, change: (psp: SimulatedProvider) => Promise<boolean>) {
    const psp = simulated();
    const row = await findTransactionById(deps.db, transactionId);
    if (!row || row.type !== 'withdrawal' || row.status === 'initiating' || row.status === 'aborted') {
      throw new ApiError(404, 'Withdrawal not found.');
    }
    if (!(await change(psp))) throw new ApiError(409, `The PSP cannot do that to this withdrawal (status ${row.status}).`);
    const synced = await syncWithdrawal(deps, transactionId);
    if (!synced) throw new ApiError(404, 'Withdrawal not found.');
    return toApiTransaction(synced, 'single');
  }

  router.post('/admin/v1/sandbox/withdrawals/:transactionId/settle', async (req, res) => {
    const beneficiary = (req.body as { beneficiary?: PartyJson } | undefined)?.beneficiary;
    res.json(await sandboxAction(req.params.transactionId, (psp) => psp.settle(req.params.transactionId, beneficiary)));
  });

  router.post('/admin/v1/sandbox/withdrawals/:transactionId/reject', async (req, res) => {
    const body = req.body as { refusedCode: string; refusedReason: string };
    res.json(
      await sandboxAction(req.params.transactionId, (psp) => psp.reject(req.params.transactionId, body.refusedCode, body.refusedReason)),
    );
  });

  router.post('/admin/v1/sandbox/withdrawals/:transactionId/return', async (req, res) => {
    const body = req.body as { amountCents: number };
    res.json(await sandboxAction(req.params.transactionId, (psp) => psp.returnTransfer(req.params.transactionId, body.amountCents)));
  });

  router.post('/admin/v1/sandbox/reconcile', async (_req, res) => {
    simulated();
    res.json({ examined: await reconcileWithdrawals(deps) });
  });

  router.get('/admin/v1/ledger/check', async (_req, res) => {
    const violations = await checkLedger(deps.db);
    res.json({ consistent: violations.length === 0, violations });
  });

  return router;
}
