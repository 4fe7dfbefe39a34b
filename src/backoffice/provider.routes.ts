import type { Router } from 'express';
import type { components, paths } from '../../generated/admin-types.ts';
import { openUnmatchedPix, resolveUnmatchedPix, type UnmatchedPixRow } from '../charges/receivedPix.service.ts';
import { callerOf } from '../http/backofficeAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { audited } from './audit.ts';

const DEFAULT_LIMIT = 50;

function toAdminUnmatchedPix(row: UnmatchedPixRow): components['schemas']['UnmatchedPix'] {
  const payer = row.payer as components['schemas']['UnmatchedPix']['payer'] | null;
  return {
    endToEndId: row.end_to_end_id,
    ...(row.charge_ref !== null ? { chargeRef: row.charge_ref } : {}),
    ...(row.transaction_id !== null ? { transactionId: row.transaction_id } : {}),
    amountCents: Number(row.amount_cents),
    receivedAt: row.received_at.getTime(),
    reason: row.reason,
    ...(payer ? { payer } : {}),
    status: row.status,
    createdAt: row.created_at.getTime(),
    ...(row.resolved_at !== null ? { resolvedAt: row.resolved_at.getTime() } : {}),
    ...(row.resolved_by !== null ? { resolvedBy: row.resolved_by } : {}),
    ...(row.resolution_note !== null ? { resolutionNote: row.resolution_note } : {}),
  };
}

/**
 * Back office, openapi/admin/paths/provider: the received Pix the provider reported that could not be
 * credited as a charge's payment (src/charges/receivedPix.service.ts), for an operator to return or settle.
 */
export function providerRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/admin/v1/provider/unmatched-pix', async (req, res) => {
    const limit = req.query.limit === undefined ? DEFAULT_LIMIT : Number(req.query.limit);
    const { rows, openCents } = await openUnmatchedPix(deps, limit);
    res.json({ items: rows.map(toAdminUnmatchedPix), count: rows.length, openCents });
  });

  api.post('/admin/v1/provider/unmatched-pix/{endToEndId}/resolve', async (req, res) => {
    const endToEndId = req.params.endToEndId;
    const resolved = await resolveUnmatchedPix(deps, endToEndId, { by: callerOf(res).actor.name, note: req.body.note.trim() });
    const after = toAdminUnmatchedPix(resolved.after);
    await audited(deps, req, res, { action: 'provider.unmatched_pix.resolve', target: { type: 'pix', id: endToEndId }, accountId: null, before: toAdminUnmatchedPix(resolved.before), after });
    res.json(after);
  });
}
