/**
 * The upstream PSP (the direct SPI participant that actually moves money) behind one interface.
 * The gateway never talks to a PSP any other way; `SimulatedProvider` is the default implementation.
 */

export interface RegisterChargeInput {
  transactionId: string;
  amountCents: number;
  expiresAtMs: number;
}

export interface RegisteredCharge {
  /** The PSP's own id of the charge. */
  providerRef: string;
  /** Location of the dynamic BR Code payload, without scheme (BR Code field 26, sub-field 25). */
  locationUrl: string;
}

/** The provider answered with a failure: nothing was created upstream. */
export class ProviderFailure extends Error {
  constructor(message = 'provider failure') {
    super(message);
    this.name = 'ProviderFailure';
  }
}

/** The provider did not answer in time: the outcome upstream is unknown. */
export class ProviderTimeout extends Error {
  constructor(message = 'provider timeout') {
    super(message);
    this.name = 'ProviderTimeout';
  }
}

export interface PixProvider {
  readonly name: string;
  /** ISPB of the PSP, used in the end-to-end ids it issues. */
  readonly ispb: string;
  registerCharge(input: RegisterChargeInput): Promise<RegisteredCharge>;
}
