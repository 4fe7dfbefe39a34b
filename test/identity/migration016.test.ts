/**
 * Migration 016 (account security) on a populated database: every operator of before (none could choose a
 * password) must change it, one never used expiring in 24 hours and one in use in 30 days; a deactivated
 * operator is left alone; live dashboard sessions get a public id; accounts do not require team
 * two-factor; the audit log takes the actor type `user`.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.ts';
import { openDatabase } from '../support/gateway.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const HOUR_MS = 3_600_000;

describe('migration 016_account_security', () => {
  it('marks the operators of before, gives sessions an id, and widens the audit actors', async () => {
    const { handle, drop } = await openDatabase();
    cleanup = async () => {
      await handle.close();
      await drop();
    };
    const db = handle.db;
    await migrateUpTo(db, '015_provider_rails');
    await sql`INSERT INTO operators (id, email, name, roles, password_hash, totp_enabled_at, created_at, updated_at, disabled_at) VALUES
      ('op_1', 'usado@pixgate.test', 'Usado', '["admin"]', 'x', now(), now(), now(), NULL),
      ('op_2', 'novo@pixgate.test', 'Novo', '["support"]', 'x', NULL, now(), now(), NULL),
      ('op_3', 'saiu@pixgate.test', 'Saiu', '["support"]', 'x', now(), now(), now(), now())`.execute(db);
    await sql`INSERT INTO accounts (id, legal_name, responsible_cpf, company_cnpj, email, kyc_status, charge_fee_fixed_cents, charge_fee_bps,
      withdrawal_fee_fixed_cents, withdrawal_fee_bps, charge_rate_per_hour, created_at, updated_at)
      VALUES ('acc_1', 'Loja', '52998224725', '11222333000181', 'a@b.com.br', 'approved', 0, 0, 0, 0, 100, now(), now())`.execute(db);
    await sql`INSERT INTO dashboard_users (id, account_id, email, name, role, password_hash, created_at, updated_at)
      VALUES ('usr_1', 'acc_1', 'a@b.com.br', 'A', 'owner', 'x', now(), now())`.execute(db);
    await sql`INSERT INTO dashboard_sessions (token_hash, user_id, stage, created_at, last_seen_at, expires_at)
      VALUES ('hash-1', 'usr_1', 'complete', now(), now(), now() + interval '1 hour')`.execute(db);

    await migrateToLatest(db);

    const operators = await db.selectFrom('operators').select(['id', 'password_temporary_until']).orderBy('id').execute();
    const until = Object.fromEntries(operators.map((row) => [row.id, row.password_temporary_until?.getTime() ?? null]));
    const now = Date.now();
    expect(until['op_1']).toBeGreaterThan(now + 29 * 24 * HOUR_MS);
    expect(until['op_2']).toBeGreaterThan(now + 23 * HOUR_MS);
    expect(until['op_2']).toBeLessThan(now + 25 * HOUR_MS);
    expect(until['op_3']).toBeNull();
    const session = await db.selectFrom('dashboard_sessions').select('id').executeTakeFirstOrThrow();
    expect(session.id).toMatch(/^ses_[0-9a-f]{24}$/);
    const account = await db.selectFrom('accounts').select('team_two_factor_required').executeTakeFirstOrThrow();
    expect(account.team_two_factor_required).toBe(false);
    await sql`INSERT INTO audit_log (at, actor_type, actor_id, actor_name, action, target_type) VALUES (now(), 'user', 'usr_1', 'A', 'user.signed_in', 'user')`.execute(db);
    await expect(sql`INSERT INTO audit_log (at, actor_type, actor_name, action, target_type) VALUES (now(), 'alguém', 'A', 'x.y', 'user')`.execute(db)).rejects.toThrow();
  });
});
