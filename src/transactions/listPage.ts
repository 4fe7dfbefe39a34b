/**
 * Keyset pages of the merchant API's lists (transactions, charges with a due date, static QR codes, payment
 * links): newest first, a page read with one row more than asked, and a cursor naming the last returned
 * row's position (its creation time in microseconds and its id) when that further row exists. One helper,
 * so every list reads, refuses (400, InvalidCursor) and writes its cursors the same way.
 */
import { decodeCursor, encodeCursor } from '../primitives/cursor.ts';
import { InvalidCursor } from './transaction.errors.ts';

/** Where a page starts: after the row created at `createdAtUs` (microseconds) with this id. */
export interface ListPosition {
  createdAtUs: string;
  id: string;
}

const CREATED_AT_US = /^\d{1,17}$/;

/** The position a list's cursor names (`idPattern` the list's ids); undefined without a cursor; a cursor of another list or edited, InvalidCursor. */
export function positionAfter(cursor: string | undefined, idPattern: RegExp): ListPosition | undefined {
  if (cursor === undefined) return undefined;
  const parts = decodeCursor(cursor, [CREATED_AT_US, idPattern]);
  if (!parts) throw new InvalidCursor();
  return { createdAtUs: parts[0]!, id: parts[1]! };
}

/** A page's size when the request names none. */
export const DEFAULT_PAGE_LIMIT = 50;

/** The page size a list's `limit` asks for (the document validated it: an integer 1..100), DEFAULT_PAGE_LIMIT without one. */
export const pageLimit = (limit: string | number | undefined): number => (limit === undefined ? DEFAULT_PAGE_LIMIT : Number(limit));

/** How many rows to read for a page of `limit`: one more, to know whether another page exists. */
export const rowsToRead = (limit: number): number => limit + 1;

/** The page of at most `limit` rows out of those read, and the cursor after it when a further row was read. */
export function pageOf<R>(rows: readonly R[], limit: number, positionOfRow: (row: R) => ListPosition): { page: R[]; nextCursor?: string } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  if (rows.length <= limit || last === undefined) return { page };
  const { createdAtUs, id } = positionOfRow(last);
  return { page, nextCursor: encodeCursor([createdAtUs, id]) };
}
