/** Owner of the call of `charge_move` (migration 025): a charge's state change with the money of its step. */
import { sql, type Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import type { ChargeLedgerStep, ChargeStatus } from './charge.states.ts';

/**
 * A charge's state change in one statement: locked, checked to be in `from` (else SQLSTATE PXM01), its step
 * booked (`charge_book`: credit, or none), the status written.
 */
export async function chargeMove(
  trx: Transaction<Database>,
  move: { id: string; from: ChargeStatus; to: ChargeStatus; step: Exclude<ChargeLedgerStep, 'debit'>; at: Date },
): Promise<TransactionRow> {
  const result = await sql<TransactionRow>`SELECT * FROM charge_move(${move.id}, ${move.from}, ${move.to}, ${move.step}, ${move.at})`.execute(trx);
  const row = result.rows[0];
  if (!row) throw new Error(`charge ${move.id}: no row moved`);
  return row;
}
