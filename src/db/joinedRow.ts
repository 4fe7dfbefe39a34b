/**
 * A row read from a join of `transactions` with a table of its own (a charge with a due date, a recurrence's
 * cycle), the other table's columns selected under a prefix (`d__due_date`): split into the transaction and
 * that table's row. Typed by the caller, who chose the columns.
 */
export function splitJoinedRow(row: Record<string, unknown>, prefix: string): { own: Record<string, unknown>; transaction: Record<string, unknown> } {
  const own: Record<string, unknown> = {};
  const transaction: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(prefix)) own[key.slice(prefix.length)] = value;
    else transaction[key] = value;
  }
  return { own, transaction };
}
