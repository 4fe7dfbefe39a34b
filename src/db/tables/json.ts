import type { ColumnType } from 'kysely';

/** A JSON column: read as T, written as text. */
export type Json<T> = ColumnType<T, string, string>;
