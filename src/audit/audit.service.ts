import type { AuditActorType, AuditEntryRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { appendAuditEntry, listAuditEntries, type AuditFilter } from './audit.repository.ts';

/** Who acts in the back office: an operator signed in to the console, or the automation token. */
export interface Actor {
  type: AuditActorType;
  id: string | null;
  name: string;
}

export interface AuditContext {
  actor: Actor;
  requestId?: string | undefined;
  ip?: string | undefined;
}

export interface AuditedChange {
  /** Dotted verb, e.g. `account.update`, `recipient.approve`, `withdrawal.reject`. */
  action: string;
  target: { type: string; id: string | null };
  accountId?: string | null | undefined;
  before?: unknown;
  after?: unknown;
}

/**
 * Writes one audit entry. Called by the back office after each action it performs, with the values before
 * and after as the back office shows them (never secrets: an API key's or a webhook's secret is not kept).
 */
export async function recordAudit(deps: Pick<Deps, 'db' | 'clock'>, context: AuditContext, change: AuditedChange): Promise<void> {
  await appendAuditEntry(deps.db, {
    at: new Date(deps.clock.now()),
    actor_type: context.actor.type,
    actor_id: context.actor.id,
    actor_name: context.actor.name,
    action: change.action,
    target_type: change.target.type,
    target_id: change.target.id,
    account_id: change.accountId ?? null,
    before: change.before === undefined ? null : JSON.stringify(change.before),
    after: change.after === undefined ? null : JSON.stringify(change.after),
    request_id: context.requestId ?? null,
    ip: context.ip ?? null,
  });
}

export function auditTrail(deps: Pick<Deps, 'db'>, filter: AuditFilter): Promise<AuditEntryRow[]> {
  return listAuditEntries(deps.db, filter);
}
