import type { components } from '../../generated/admin-types.ts';
import type { AuditEntryRow, OperatorRow } from '../db/schema.ts';

type Schemas = components['schemas'];

export function toAdminOperator(row: OperatorRow): Schemas['Operator'] {
  return {
    operatorId: row.id,
    email: row.email,
    name: row.name,
    roles: row.roles,
    twoFactorEnabled: row.totp_enabled_at !== null,
    active: row.disabled_at === null,
    createdAt: row.created_at.getTime(),
  };
}

export function toAuditEntry(row: AuditEntryRow): Schemas['AuditEntry'] {
  return {
    entryId: row.id,
    at: row.at.getTime(),
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    accountId: row.account_id,
    before: row.before,
    after: row.after,
    requestId: row.request_id,
  };
}
