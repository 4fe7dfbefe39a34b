/**
 * What a service throws when a request cannot be done: a small class named by what went wrong
 * (`InsufficientBalance`, `RecipientDeactivated`, ...) carrying only the facts a message needs. Services
 * never pick an HTTP status or a text: `src/http/errorMapping.ts` maps each class to the contract's status
 * and to its message in the merchant (`src/messages/merchant.ts`) or operator (`src/messages/operator.ts`)
 * catalogue.
 */
export abstract class DomainError extends Error {
  constructor(detail?: string) {
    super(detail ?? new.target.name);
    this.name = new.target.name;
  }
}

/** A document (CPF/CNPJ) that fails the contract's rules, and why. */
export type DocumentProblem = 'characters' | 'length' | 'checkDigits';
