import { DomainError } from '../platform/domainError.ts';

/**
 * The amount of a charge with a due date outside the account's range or the platform's ceiling, as the
 * dashboard's form answers it: beside the "Valor" field, in reais (the charges' own errors carry no field).
 */
export class DueChargeAmountOutOfRange extends DomainError {
  readonly limit: 'minimum' | 'maximum' | 'permittedMinimum' | 'permittedMaximum';
  readonly cents: number;
  constructor(limit: DueChargeAmountOutOfRange['limit'], cents: number) {
    super();
    this.limit = limit;
    this.cents = cents;
  }
}

/**
 * A date of the right shape that no calendar has (`2027-02-30`): the document's `format: date` checks the
 * shape only. Refused beside its field (`dueDate`, `discount.dates.0.date`, `dueFrom`, `dueTo`).
 */
export class DueChargeDayInvalid extends DomainError {
  readonly field: string;
  constructor(field: string) {
    super();
    this.field = field;
  }
}
