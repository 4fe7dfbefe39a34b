/**
 * Owner of `audit_log`: who did what to which target, when, with the values before and after. Append-only:
 * this module only inserts and reads, and a database trigger refuses UPDATE, DELETE and TRUNCATE.
 */
import type { Kysely } from 'kysely';
import type { AuditEntryRow, AuditLogTable, Database } from '../db/schema.ts';
import type { Insertable } from 'kysely';

export async function appendAuditEntry(db: Kysely<Database>, entry: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(entry).execute();
}

export interface AuditFilter {
  actorId?: string | undefined;
  accountId?: string | undefined;
  action?: string | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Entries older than this id (the next page). */
  beforeId?: number | undefined;
  limit: number;
}

/** Newest first. */
export function listAuditEntries(db: Kysely<Database>, filter: AuditFilter): Promise<AuditEntryRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}
