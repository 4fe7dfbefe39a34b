import { sql, type Kysely } from 'kysely';
import type { CustomerJson, Database } from '../db/schema.ts';

export interface NewCharge {
  id: string;
  accountId: string;
  amountCents: number;
  feeCents: number;
  externalRef: string | null;
  pixPayload: string;
  expiresAt: Date;
  createdAt: Date;
  customer: CustomerJson;
  providerRef: string;
}

const chargeValues = (charge: NewCharge) => sql`
  ${charge.id}::text, ${charge.accountId}::text, 'pix_in', 'pending', ${charge.amountCents}::bigint,
  ${charge.feeCents}::bigint, ${charge.amountCents - charge.feeCents}::bigint, ${charge.externalRef}::text,
  ${charge.pixPayload}::text, ${charge.expiresAt}::timestamptz, ${charge.createdAt}::timestamptz,
  ${charge.createdAt}::timestamptz, ${JSON.stringify(charge.customer)}::jsonb, ${charge.providerRef}::text`;

const chargeColumns = sql`(id, account_id, type, status, amount_cents, fee_cents, net_cents, external_ref,
  pix_payload, expires_at, created_at, updated_at, customer, provider_ref)`;

/** Stores a charge without externalRef: one statement. */
export async function insertCharge(db: Kysely<Database>, charge: NewCharge): Promise<void> {
  await sql`INSERT INTO transactions ${chargeColumns} VALUES (${chargeValues(charge)})`.execute(db);
}

/**
 * Claims the charge's externalRef and stores the charge in ONE statement: the charge row is inserted only
 * when the key was claimed (new, or its 7-day retention over). A concurrent claim of the same key waits for
 * the first to commit and then claims nothing. Returns false when the key belongs to another charge.
 */
export async function insertChargeClaimingKey(
  db: Kysely<Database>,
  charge: NewCharge & { externalRef: string },
  key: { expiresAt: Date; now: Date },
): Promise<boolean> {
  const result = await sql<{ id: string }>`
    WITH claim AS (
      INSERT INTO idempotency_keys (account_id, scope, external_ref, transaction_id, expires_at)
      VALUES (${charge.accountId}, 'charge', ${charge.externalRef}, ${charge.id}, ${key.expiresAt})
      ON CONFLICT (account_id, scope, external_ref) DO UPDATE
        SET transaction_id = excluded.transaction_id, expires_at = excluded.expires_at
        WHERE idempotency_keys.expires_at <= ${key.now}
      RETURNING transaction_id
    )
    INSERT INTO transactions ${chargeColumns}
    SELECT ${chargeValues(charge)} FROM claim
    RETURNING id`.execute(db);
  return result.rows.length === 1;
}
