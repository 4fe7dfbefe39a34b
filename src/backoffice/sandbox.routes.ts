import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import type { TransactionRow } from '../db/schema.ts';
import { devolveOutsideApi, endCharge, failCharge } from '../charges/charge.sandbox.ts';
import { removeAtProviderFirst, sandboxPayCharge } from '../charges/charge.sandboxPayment.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { reconcileWithdrawals } from '../jobs/reconcileWithdrawals.ts';
import type { Deps } from '../platform/deps.ts';
import { requireSandbox } from '../provider/sandbox.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { findAnyTransaction } from '../transactions/transaction.service.ts';
import { applySandboxAction } from '../withdrawals/withdrawal.sandbox.ts';
import { applyRefundSandboxAction, chargeOfRefund } from '../refunds/refund.sandbox.ts';
import { RefundNotFound } from '../refunds/refund.errors.ts';
import { audited } from './audit.ts';
import { sandboxBlockInfraction, sandboxCloseInfraction, sandboxOpenInfraction } from '../infractions/infraction.sandbox.ts';
import { toAdminInfraction } from './infractions.mapper.ts';
import { payStaticQrCodeInSandbox } from '../staticQrCodes/staticQrCode.sandboxPay.ts';
import { sandboxAnswerConsent, sandboxCancelAsPayer, sandboxCancelCycleAsPayer, sandboxDebitCycle, sandboxRunRecurrences } from '../recurrences/recurrence.sandbox.ts';
import { recurrenceJson } from '../recurrences/recurrence.service.ts';
import { toCycleJson } from '../recurrences/recurrence.jsons.ts';

/**
 * Back office, openapi/admin/paths/sandbox: what the simulated PSP can be told to do (pay, expire, cancel,
 * fail or refund a charge; settle, refuse or return a withdrawal; reconcile now; script its failures).
 * Only on a server that runs the simulated PSP.
 */
export function sandboxRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  /** Every sandbox action is audited like any other back-office action, with the transaction before and after. */
  const done = async (
    req: Parameters<typeof audited>[1],
    res: Parameters<typeof audited>[2],
    action: string,
    transactionId: string,
    apply: () => Promise<TransactionRow>,
  ) => {
    const previous = await findAnyTransaction(deps, transactionId);
    const row = await apply();
    const transaction = toApiTransaction(row, 'single');
    const before = previous ? toApiTransaction(previous, 'single') : undefined;
    await audited(deps, req, res, { action, target: { type: 'transaction', id: row.id }, accountId: row.account_id, before, after: transaction });
    return transaction;
  };

  api.post('/admin/v1/sandbox/charges/{transactionId}/pay', async (req, res) => {
    requireSandbox(deps);
    res.json(await done(req, res, 'sandbox.charge.pay', req.params.transactionId, () => sandboxPayCharge(deps, req.params.transactionId, req.body ?? {})));
  });

  api.post('/admin/v1/sandbox/charges/{transactionId}/expire', async (req, res) => {
    requireSandbox(deps);
    res.json(await done(req, res, 'sandbox.charge.expire', req.params.transactionId, async () => {
      await removeAtProviderFirst(deps, req.params.transactionId);
      return endCharge(deps, req.params.transactionId, 'expired');
    }));
  });

  api.post('/admin/v1/sandbox/charges/{transactionId}/cancel', async (req, res) => {
    requireSandbox(deps);
    res.json(await done(req, res, 'sandbox.charge.cancel', req.params.transactionId, async () => {
      await removeAtProviderFirst(deps, req.params.transactionId);
      return endCharge(deps, req.params.transactionId, 'cancelled');
    }));
  });

  api.post('/admin/v1/sandbox/charges/{transactionId}/fail', async (req, res) => {
    requireSandbox(deps);
    res.json(await done(req, res, 'sandbox.charge.fail', req.params.transactionId, () => failCharge(deps, req.params.transactionId)));
  });

  api.post('/admin/v1/sandbox/charges/{transactionId}/refund', async (req, res) => {
    requireSandbox(deps);
    res.json(await done(req, res, 'sandbox.charge.refund', req.params.transactionId, () => devolveOutsideApi(deps, req.params.transactionId, req.body.amountCents)));
  });

  // A payer pays a static QR code: audited on the code, whatever became of the Pix (unmatched included).
  api.post('/admin/v1/sandbox/static-qrcodes/{staticQrCodeId}/pay', async (req, res) => {
    requireSandbox(deps);
    const id = req.params.staticQrCodeId;
    const body = req.body ?? {};
    const { accountId, answer } = await payStaticQrCodeInSandbox(deps, id, { amountCents: body.amountCents, payer: body.payer });
    await audited(deps, req, res, { action: 'sandbox.staticqrcode.pay', target: { type: 'static_qrcode', id }, accountId, after: answer });
    res.json(answer);
  });

  // Pix Automático: the payer's bank answers, then PixGate reads the recurrence or the cycle back.
  api.post('/admin/v1/sandbox/recurrences/{recurrenceId}/consent', async (req, res) => {
    const id = req.params.recurrenceId;
    const { outcome, rejectionCode, payerMaximumCents } = req.body;
    const answer = outcome === 'approve' ? { outcome, payerMaximumCents } : outcome === 'reject' ? { outcome, code: rejectionCode ?? 'AP13' } : { outcome };
    const row = await sandboxAnswerConsent(deps, id, answer);
    const after = await recurrenceJson(deps, row);
    await audited(deps, req, res, { action: 'sandbox.recurrence.consent', target: { type: 'recurrence', id }, accountId: row.account_id, after });
    res.json(after);
  });

  api.post('/admin/v1/sandbox/recurrences/{recurrenceId}/payer-cancel', async (req, res) => {
    const id = req.params.recurrenceId;
    const body = req.body ?? {};
    const row = await sandboxCancelAsPayer(deps, id, { code: body.cancellationCode, by: body.by });
    const after = await recurrenceJson(deps, row);
    await audited(deps, req, res, { action: 'sandbox.recurrence.cancel', target: { type: 'recurrence', id }, accountId: row.account_id, after });
    res.json(after);
  });

  api.post('/admin/v1/sandbox/recurrence-cycles/{transactionId}/debit', async (req, res) => {
    const id = req.params.transactionId;
    const { outcome, refusalCode, description } = req.body;
    const cycle = await sandboxDebitCycle(deps, id, { outcome, code: refusalCode, description });
    const after = toCycleJson(cycle);
    await audited(deps, req, res, { action: 'sandbox.recurrence.debit', target: { type: 'transaction', id }, accountId: cycle.charge.account_id, after });
    res.json(after);
  });

  api.post('/admin/v1/sandbox/recurrence-cycles/{transactionId}/payer-cancel', async (req, res) => {
    const id = req.params.transactionId;
    const cycle = await sandboxCancelCycleAsPayer(deps, id, req.body?.cancellationCode);
    const after = toCycleJson(cycle);
    await audited(deps, req, res, { action: 'sandbox.recurrence.cycle.cancel', target: { type: 'transaction', id }, accountId: cycle.charge.account_id, after });
    res.json(after);
  });

  api.post('/admin/v1/sandbox/recurrences/run', async (req, res) => {
    const outcome = await sandboxRunRecurrences(deps);
    await audited(deps, req, res, { action: 'sandbox.recurrences.run', target: { type: 'worker', id: null }, after: outcome });
    res.json(outcome);
  });

  // MED: each answered with the infraction as PixGate recorded it (the follower runs at once).
  api.post('/admin/v1/sandbox/charges/{transactionId}/infractions', async (req, res) => {
    requireSandbox(deps);
    const body = req.body ?? {};
    const row = await sandboxOpenInfraction(deps, req.params.transactionId, { amountCents: body.amountCents, reason: body.reason, situation: body.situation });
    const after = toAdminInfraction(row);
    await audited(deps, req, res, { action: 'sandbox.infraction.open', target: { type: 'infraction', id: row.id }, accountId: row.account_id, after });
    res.json(after);
  });

  api.post('/admin/v1/sandbox/infractions/{infractionId}/block', async (req, res) => {
    requireSandbox(deps);
    const row = await sandboxBlockInfraction(deps, req.params.infractionId);
    const after = toAdminInfraction(row);
    await audited(deps, req, res, { action: 'sandbox.infraction.block', target: { type: 'infraction', id: row.id }, accountId: row.account_id, after });
    res.json(after);
  });

  api.post('/admin/v1/sandbox/infractions/{infractionId}/close', async (req, res) => {
    requireSandbox(deps);
    const row = await sandboxCloseInfraction(deps, req.params.infractionId, req.body.status);
    const after = toAdminInfraction(row);
    await audited(deps, req, res, { action: 'sandbox.infraction.close', target: { type: 'infraction', id: row.id }, accountId: row.account_id, after });
    res.json(after);
  });

  api.post('/admin/v1/sandbox/provider/outcomes', async (req, res) => {
    const provider = requireSandbox(deps);
    await provider.queueOutcome(req.body.operation, req.body.outcome, req.body.count ?? 1);
    await audited(deps, req, res, { action: 'sandbox.provider.queue', target: { type: 'provider', id: null }, after: req.body });
    res.json({ pending: provider.pendingOutcomes() });
  });

  api.delete('/admin/v1/sandbox/provider/outcomes', async (req, res) => {
    const provider = requireSandbox(deps);
    await provider.clearOutcomes();
    await audited(deps, req, res, { action: 'sandbox.provider.clear', target: { type: 'provider', id: null } });
    res.json({ pending: provider.pendingOutcomes() });
  });

  // Refunds: the charge is the audited transaction (its refunds change with it).
  const refundAction = async (req: Parameters<typeof audited>[1], res: Parameters<typeof audited>[2], action: string, refundId: string, change: Parameters<typeof applyRefundSandboxAction>[2]) => {
    requireSandbox(deps);
    const chargeId = await chargeOfRefund(deps, refundId);
    if (chargeId === undefined) throw new RefundNotFound();
    return done(req, res, action, chargeId, () => applyRefundSandboxAction(deps, refundId, change));
  };

  api.post('/admin/v1/sandbox/refunds/{refundId}/settle', async (req, res) => {
    const id = req.params.refundId;
    res.json(await refundAction(req, res, 'sandbox.refund.settle', id, (psp) => psp.settleRefund(id)));
  });

  api.post('/admin/v1/sandbox/refunds/{refundId}/reject', async (req, res) => {
    const id = req.params.refundId;
    res.json(await refundAction(req, res, 'sandbox.refund.reject', id, (psp) => psp.rejectRefund(id, req.body.refusedCode, req.body.refusedReason)));
  });

  api.post('/admin/v1/sandbox/withdrawals/{transactionId}/settle', async (req, res) => {
    const id = req.params.transactionId;
    const beneficiary = req.body?.beneficiary;
    res.json(await done(req, res, 'sandbox.withdrawal.settle', id, () => applySandboxAction(deps, id, (psp) => psp.settle(id, beneficiary))));
  });

  api.post('/admin/v1/sandbox/withdrawals/{transactionId}/reject', async (req, res) => {
    const id = req.params.transactionId;
    const { refusedCode, refusedReason } = req.body;
    res.json(await done(req, res, 'sandbox.withdrawal.reject', id, () => applySandboxAction(deps, id, (psp) => psp.reject(id, refusedCode, refusedReason))));
  });

  api.post('/admin/v1/sandbox/withdrawals/{transactionId}/return', async (req, res) => {
    const id = req.params.transactionId;
    const { amountCents } = req.body;
    res.json(await done(req, res, 'sandbox.withdrawal.return', id, () => applySandboxAction(deps, id, (psp) => psp.returnTransfer(id, amountCents))));
  });

  api.post('/admin/v1/sandbox/reconcile', async (req, res) => {
    requireSandbox(deps);
    const examined = await reconcileWithdrawals(deps);
    await audited(deps, req, res, { action: 'sandbox.reconcile', target: { type: 'worker', id: null }, after: { examined } });
    res.json({ examined });
  });
}
