import type { ColumnType } from 'kysely';
import type { Json } from './json.ts';

/**
 * Charges with a due date (migration 026): one row per `transactions` row whose `charge_kind` is `due`.
 * `terms` holds the fine, interest, discount and rebate as src/charges/dueAmount.ts types them (written only
 * by src/charges/dueCharge.repository.ts, from validated terms); `debtor` the customer with address.
 */
export interface StoredDueTerms {
  fine?: object;
  interest?: object;
  discount?: object;
  rebate?: object;
}

export interface DueDebtorJson {
  name: string;
  email?: string;
  phone?: string;
  document: { number: string; type: 'cpf' | 'cnpj' };
  address?: { street: string; city: string; state: string; postalCode: string };
}

export interface DueChargesTable {
  transaction_id: string;
  account_id: string;
  /** São Paulo calendar days, `YYYY-MM-DD`. */
  due_date: string;
  days_after_due: number;
  last_payable_date: string;
  original_cents: number;
  terms: Json<StoredDueTerms>;
  debtor: Json<DueDebtorJson>;
  description: string | null;
  revision: ColumnType<number, number | undefined, number>;
  fee_fixed_cents: number;
  fee_bps: number;
  created_at: Date;
  updated_at: Date;
}

/** A batch of charges with a due date (migration 028); `provider_ref` numbers it at the provider (API Pix `lotecobv/{id}`). */
export interface DueChargeBatchesTable {
  id: string;
  account_id: string;
  /** bigint, read as text. */
  provider_ref: ColumnType<string, string, never>;
  description: string;
  status: 'processing' | 'done';
  created_at: Date;
  updated_at: Date;
}

/** One item of a batch: its validated request until its charge is stored (`created`), or why it was `refused`. */
export interface DueChargeBatchItemsTable {
  batch_id: string;
  item_index: number;
  status: 'processing' | 'created' | 'refused';
  transaction_id: string | null;
  error: string | null;
  request: Json<object> | null;
}
