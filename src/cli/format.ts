/** Small text helpers for the human-readable output. */

/** `R$ 1.234,56` (negative amounts keep their sign: `-R$ 10,00`). */
export function brl(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const reais = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}R$ ${reais},${String(abs % 100).padStart(2, '0')}`;
}

/** `R$ 15.234,50 (1523450 cents)`: operators compare with the API's integer fields. */
export function money(cents: number): string {
  return `${brl(cents)} (${cents} cents)`;
}

/** Unix milliseconds as an ISO-8601 UTC time. */
export function time(ms: number): string {
  return new Date(ms).toISOString();
}

/** `99 bps (0.99 %)`. */
export function bps(value: number): string {
  return `${value} bps (${(value / 100).toFixed(2)} %)`;
}

/** Label/value lines with the values aligned. */
export function fields(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

/** Rows of cells with each column padded to its widest cell (the last column is not padded). */
export function columns(rows: ReadonlyArray<readonly string[]>): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '))
    .join('\n');
}

/** `1 account` / `2 accounts`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
