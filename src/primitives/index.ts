/** PIX primitives: pure functions (randomness aside) shared by the charge, withdrawal and recipient features. */
export * from './apiKeys.ts';
export * from './brcode.ts';
export * from './crc16.ts';
export * from './documents.ts';
export * from './endToEndId.ts';
export * from './ids.ts';
export * from './keys.ts';
export * from './money.ts';
export type { RandomBytes } from './random.ts';
