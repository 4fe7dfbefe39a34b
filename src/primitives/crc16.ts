/**
 * CRC16/CCITT-FALSE, the checksum of the BR Code (EMV MPM field 63).
 *
 * Polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR. The BR Code computes it over the
 * whole payload including the `6304` that introduces the CRC field (pix-facts.md). Check value of
 * `123456789` is `29B1`.
 */

const POLYNOMIAL = 0x1021;
const INITIAL_VALUE = 0xffff;

/** One entry per byte value: the CRC register contribution of that byte (256 entries). */
const TABLE: readonly number[] = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) {
    crc = crc & 0x8000 ? ((crc << 1) ^ POLYNOMIAL) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
});

const utf8 = new TextEncoder();

/**
 * Returns the CRC16/CCITT-FALSE of `input` as 4 upper-case hexadecimal digits.
 * Strings are encoded as UTF-8 first (BR Codes built here are ASCII, where bytes and characters agree).
 */
export function crc16CcittFalse(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? utf8.encode(input) : input;
  let crc = INITIAL_VALUE;
  for (const byte of bytes) {
    const index = ((crc >> 8) ^ byte) & 0xff;
    crc = ((crc << 8) & 0xffff) ^ (TABLE[index] ?? 0);
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
