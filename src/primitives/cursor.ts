/**
 * Opaque page cursors of the merchant API's lists: base64url of a position's parts joined by '.', each part
 * checked against the shape its list expects, so an edited, truncated or foreign cursor is refused (400),
 * never read as a position it does not name.
 */

/** The longest cursor accepted (a position is a few dozen characters). */
export const CURSOR_MAX_CHARS = 200;

export function encodeCursor(parts: readonly (string | number | bigint)[]): string {
  return Buffer.from(parts.map(String).join('.'), 'utf8').toString('base64url');
}

/** The parts of a cursor, each matching its shape, or undefined when it is not such a cursor. */
export function decodeCursor(cursor: string, shape: readonly RegExp[]): string[] | undefined {
  if (cursor.length === 0 || cursor.length > CURSOR_MAX_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // One cursor has one spelling: re-encoding must give it back (no trailing bits, no stray bytes).
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) return undefined;
  const parts = text.split('.');
  if (parts.length !== shape.length || !parts.every((part, index) => shape[index]?.test(part) === true)) return undefined;
  return parts;
}
