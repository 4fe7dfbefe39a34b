import type { components } from '../../generated/admin-types.ts';
import type { HoldRow } from '../db/schema.ts';

type Hold = components['schemas']['Hold'];

export function toAdminHold(row: HoldRow): Hold {
  return {
    holdId: row.id,
    accountId: row.account_id,
    transactionId: row.transaction_id,
    amountCents: row.amount_cents,
    reason: row.reason,
    note: row.note,
    status: row.status,
    createdAt: row.created_at.getTime(),
    releasedAt: row.released_at ? row.released_at.getTime() : null,
    ...(row.infraction_id !== null ? { infractionId: row.infraction_id } : {}),
    ...(row.deadline_at !== null ? { deadlineAt: row.deadline_at.getTime() } : {}),
  };
}
