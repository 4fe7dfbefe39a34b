import { DomainError } from '../platform/domainError.ts';

/** Not a static QR code of this account (or no such code). */
export class StaticQrCodeNotFound extends DomainError {}

/**
 * A description that does not fit the BR Code's field 26 beside this installation's receiving key (an
 * e-mail key longer than 36 characters leaves less than the contract's 37): `maxLength` is what fits.
 */
export class StaticDescriptionTooLong extends DomainError {
  readonly maxLength: number;
  constructor(maxLength: number) {
    super();
    this.maxLength = maxLength;
  }
}
