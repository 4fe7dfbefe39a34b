import type { Kysely, Transaction } from 'kysely';
import type { AuditActorType, AuditEntryRow, Database } from '../db/schema.ts';
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
 * Writes an action's audit entry in the action's own database transaction, from what the action decided:
 * the entry and the change it records commit together or not at all (a crash between two commits could
 * otherwise leave an approval with no audit entry). A service that performs an audited action takes one
 * and runs it through `withAudit`.
 */
export type AuditStep<R> = (trx: Transaction<Database>, result: R) => Promise<void>;

/** For a service called where nothing is audited (jobs, the merchant API, tests). */
export const notAudited: AuditStep<unknown> = async () => undefined;

/** Runs `work` in one database transaction and writes its audit entry there, from its result. */
export function withAudit<R>(db: Kysely<Database>, audit: AuditStep<R>, work: (trx: Transaction<Database>) => Promise<R>): Promise<R> {
  return db.transaction().execute(async (trx) => {
    const result = await work(trx);
    await audit(trx, result);
    return result;
  });
}

/** The audit step of a back-office action: who (context), and what it changed (`describe`, from its result). */
export function auditStep<R>(deps: Pick<Deps, 'clock'>, context: AuditContext, describe: (result: R) => AuditedChange): AuditStep<R> {
  return (trx, result) => writeAudit(trx, deps.clock.now(), context, describe(result));
}

/**
 * Writes one audit entry on its own: only for an action that is not one database transaction (a worker run
 * started from the back office), after it, with what it did.
 */
export function recordAudit(deps: Pick<Deps, 'db' | 'clock'>, context: AuditContext, change: AuditedChange): Promise<void> {
  return writeAudit(deps.db, deps.clock.now(), context, change);
}

/** The entry: who, what, on which target, before and after as the back office shows them (never a secret). */
async function writeAudit(db: Kysely<Database>, nowMs: number, context: AuditContext, change: AuditedChange): Promise<void> {
  await appendAuditEntry(db, {
    at: new Date(nowMs),
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
