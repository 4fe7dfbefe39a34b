import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../scripts/lib/postgres.ts';
import { connectDatabase } from '../../src/db/connect.ts';

/**
 * On Postgres every data statement runs as a named prepared statement (src/db/connect.ts): parsed and
 * planned once per connection. Checked on the real server (`npm run test:pg`); PGlite has no named
 * statements to check.
 */
const serverUrl = process.env.PIXGATE_TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('prepared statements on Postgres', () => {
  it('prepares a query once per connection and reuses it, leaving DDL and transaction control unnamed', async () => {
    const database = await createTempDatabase('pixgate_prepared', serverUrl ?? '');
    const handle = await connectDatabase({ databaseUrl: database.url, poolSize: 1 });
    try {
      await sql`CREATE TABLE probe (id int PRIMARY KEY)`.execute(handle.db);
      await handle.db.transaction().execute(async (trx) => {
        for (let id = 1; id <= 3; id += 1) await sql`INSERT INTO probe (id) VALUES (${id})`.execute(trx);
      });
      const prepared = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(handle.db);
      const inserts = prepared.rows.filter((row) => row.statement.startsWith('INSERT INTO probe'));
      expect(inserts).toHaveLength(1);
      expect(inserts[0]?.name).toMatch(/^pixgate_[0-9a-f]{24}$/);
      expect(prepared.rows.some((row) => /^(create|begin|commit)/i.test(row.statement))).toBe(false);
      const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM probe`.execute(handle.db);
      expect(count.rows[0]?.n).toBe(3);
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
