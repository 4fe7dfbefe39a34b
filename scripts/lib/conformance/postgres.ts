/**
 * A throw-away Postgres database for one conformance run: `pixgate_conformance_<12 hex>` on the server of
 * PIXGATE_CONFORMANCE_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres, trust auth).
 */
import { createTempDatabase as create, DEFAULT_SERVER_URL, type TempDatabase } from '../postgres.ts';

export type { TempDatabase };

export function createTempDatabase(serverUrl = process.env['PIXGATE_CONFORMANCE_PG_URL'] || DEFAULT_SERVER_URL): Promise<TempDatabase> {
  return create('pixgate_conformance', serverUrl);
}
