/** Field values and maxima of the PIX BR Code (pix-facts.md), shared by the builder and the parser. */

/** Globally unique identifier of the PIX arrangement in field 26, sub 00. */
export const PIX_GUI = 'br.gov.bcb.pix';
export const MERCHANT_NAME_MAX_LENGTH = 25;
export const MERCHANT_CITY_MAX_LENGTH = 15;
/** Field 26 sub 25 (location URL without scheme) and sub 01 (PIX key) both hold at most 77 characters. */
export const LOCATION_MAX_LENGTH = 77;
export const PIX_KEY_MAX_LENGTH = 77;
/** Field 62 sub 05: `***` or up to 25 alphanumerics. Dynamic charges keep their txid at the location. */
export const TXID_MAX_LENGTH = 25;
export const NO_TXID = '***';
/** EMV field 54 holds at most 13 characters (`9999999999.99`). */
export const AMOUNT_MAX_LENGTH = 13;
