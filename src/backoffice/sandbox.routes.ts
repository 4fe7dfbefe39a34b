import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { endCharge, failCharge, payCharge, refundCharge } from '../charges/charge.sandbox.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { reconcileWithdrawals } from '../jobs/reconcileWithdrawals.ts';
import type { Deps } from '../platform/deps.ts';
import { requireSimulatedProvider } from '../provider/simulated.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { applySandboxAction } from '../withdrawals/withdrawal.sandbox.ts';

/**
 * Back office, openapi/admin/paths/sandbox: what the simulated PSP can be told to do (pay, expire, cancel,
 * fail or refund a charge; settle, refuse or return a withdrawal; reconcile now; script its failures).
 * Only on a server that runs the simulated PSP.
 */
export function sandboxRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/admin/v1/sandbox/charges/{transactionId}/pay', async (req, res) => {
    requireSimulatedProvider(deps);
    res.json(toApiTransaction(await payCharge(deps, req.params.transactionId, req.body ?? {}), 'single'));
  });

  api.post('/admin/v1/sandbox/charges/{transactionId}/expire', async (req, res) => {
    requireSimulatedProvider(deps);
    res.json(toApiTransaction(await endCharge(deps, req.params.transactionId, 'expired'), 'single'));
  });

  api.post('/admin/v1/sandbox/charges/{transactionId}/cancel', async (req, res) => {
    requireSimulatedProvider(deps);
    res.json(toApiTransaction(await endCharge(deps, req.params.transactionId, 'cancelled'), 'single'));
  });

  api.post('/admin/v1/sandbox/charges/{transactionId}/fail', async (req, res) => {
    requireSimulatedProvider(deps);
    res.json(toApiTransaction(await failCharge(deps, req.params.transactionId), 'single'));
  });

  api.post('/admin/v1/sandbox/charges/{transactionId}/refund', async (req, res) => {
    requireSimulatedProvider(deps);
    res.json(toApiTransaction(await refundCharge(deps, req.params.transactionId, req.body.amountCents), 'single'));
  });

  api.post('/admin/v1/sandbox/provider/outcomes', (req, res) => {
    const provider = requireSimulatedProvider(deps);
    provider.queueOutcome(req.body.operation, req.body.outcome, req.body.count ?? 1);
    res.json({ pending: provider.pendingOutcomes() });
  });

  api.delete('/admin/v1/sandbox/provider/outcomes', (_req, res) => {
    const provider = requireSimulatedProvider(deps);
    provider.clearOutcomes();
    res.json({ pending: provider.pendingOutcomes() });
  });

  api.post('/admin/v1/sandbox/withdrawals/{transactionId}/settle', async (req, res) => {
    const id = req.params.transactionId;
    const beneficiary = req.body?.beneficiary;
    res.json(toApiTransaction(await applySandboxAction(deps, id, (psp) => psp.settle(id, beneficiary)), 'single'));
  });

  api.post('/admin/v1/sandbox/withdrawals/{transactionId}/reject', async (req, res) => {
    const id = req.params.transactionId;
    const { refusedCode, refusedReason } = req.body;
    res.json(toApiTransaction(await applySandboxAction(deps, id, (psp) => psp.reject(id, refusedCode, refusedReason)), 'single'));
  });

  api.post('/admin/v1/sandbox/withdrawals/{transactionId}/return', async (req, res) => {
    const id = req.params.transactionId;
    const { amountCents } = req.body;
    res.json(toApiTransaction(await applySandboxAction(deps, id, (psp) => psp.returnTransfer(id, amountCents)), 'single'));
  });

  api.post('/admin/v1/sandbox/reconcile', async (_req, res) => {
    requireSimulatedProvider(deps);
    res.json({ examined: await reconcileWithdrawals(deps) });
  });
}
