/** Owner of `webhook_endpoints`: a merchant's webhook URLs (up to 6), their filters and signing secrets. */
import type { Transaction } from 'kysely';
import type { Database, Db, WebhookEndpointRow } from '../db/schema.ts';

export type EndpointChanges = Partial<
  Pick<WebhookEndpointRow, 'url' | 'description' | 'enabled'> & { events: string; event_names: string }
>;

export function insertEndpoint(
  trx: Transaction<Database>,
  endpoint: Omit<WebhookEndpointRow, 'events' | 'event_names'> & { events: string; event_names: string },
): Promise<WebhookEndpointRow> {
  return trx.insertInto('webhook_endpoints').values(endpoint).returningAll().executeTakeFirstOrThrow();
}

/** URLs not deleted: what counts against the 6 an account may have. */
export async function countLiveEndpoints(trx: Transaction<Database>, accountId: string): Promise<number> {
  const count = await trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

export function findLiveEndpoint(db: Db, accountId: string, endpointId: string): Promise<WebhookEndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function listLiveEndpoints(db: Db, accountId: string): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Enabled URLs of the account (or the one named), with their expanded filters: where an event goes. */
export function listEnabledEndpoints(
  db: Db,
  accountId: string,
  endpointId?: string,
): Promise<Pick<WebhookEndpointRow, 'id' | 'event_names'>[]> {
  let query = db
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_names'])
    .where('account_id', '=', accountId)
    .where('enabled', '=', true)
    .where('deleted_at', 'is', null);
  if (endpointId !== undefined) query = query.where('id', '=', endpointId);
  return query.execute();
}

/** The enabled URLs of several accounts (the fan-out of a batch of events). */
export function listEnabledEndpointsOf(
  db: Db,
  accountIds: string[],
): Promise<Pick<WebhookEndpointRow, 'id' | 'account_id' | 'event_names' | 'created_at'>[]> {
  if (accountIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'account_id', 'event_names', 'created_at'])
    .where('account_id', 'in', accountIds)
    .where('enabled', '=', true)
    .where('deleted_at', 'is', null)
    .execute();
}

export function updateEndpointRow(db: Db, endpointId: string, changes: EndpointChanges & { updated_at: Date }): Promise<WebhookEndpointRow> {
  return db.updateTable('webhook_endpoints').set(changes).where('id', '=', endpointId).returningAll().executeTakeFirstOrThrow();
}

/** Soft delete: the URL stays for the delivery history, never receives again. */
export async function markEndpointDeleted(trx: Transaction<Database>, endpointId: string, at: Date): Promise<void> {
  await trx.updateTable('webhook_endpoints').set({ deleted_at: at, enabled: false, updated_at: at }).where('id', '=', endpointId).execute();
}

/** A new secret; the old one keeps signing (second signature) until `previousExpiresAt`. */
export async function replaceSecret(
  db: Db,
  endpointId: string,
  secrets: { secret: string; secretPrefix: string; previousSecret: string; previousExpiresAt: Date; at: Date },
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({
      secret: secrets.secret,
      secret_prefix: secrets.secretPrefix,
      previous_secret: secrets.previousSecret,
      previous_secret_expires_at: secrets.previousExpiresAt,
      updated_at: secrets.at,
    })
    .where('id', '=', endpointId)
    .execute();
}

/** Endpoints whose secrets are still stored in the clear (written before sealing existed). */
export function listEndpointsWithPlainSecrets(db: Db): Promise<Pick<WebhookEndpointRow, 'id' | 'secret' | 'previous_secret'>[]> {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'secret', 'previous_secret'])
    .where((eb) => eb.or([eb('secret', 'like', 'whsec\\_%'), eb('previous_secret', 'like', 'whsec\\_%')]))
    .execute();
}

export async function storeSealedSecrets(
  db: Db,
  endpointId: string,
  sealed: { secret: string; secretPrefix: string; previousSecret: string | null },
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ secret: sealed.secret, secret_prefix: sealed.secretPrefix, previous_secret: sealed.previousSecret })
    .where('id', '=', endpointId)
    .execute();
}
