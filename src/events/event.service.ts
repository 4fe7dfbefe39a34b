import type { OutboxEventRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { listAccountEvents } from './event.repository.ts';

/** An account's webhook events (its outbox), newest first. */
export function eventsOf(deps: Pick<Deps, 'db'>, accountId: string, limit: number): Promise<OutboxEventRow[]> {
  return listAccountEvents(deps.db, accountId, limit);
}
