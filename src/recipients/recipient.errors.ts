import { DomainError, type DocumentProblem } from '../platform/domainError.ts';

/** `legalName` shorter than 2 characters once trimmed. */
export class InvalidLegalName extends DomainError {}

/** `documentType` that is neither cpf nor cnpj after normalisation. */
export class InvalidRecipientDocumentType extends DomainError {
  readonly received: unknown;
  constructor(received: unknown) {
    super();
    this.received = received;
  }
}

/** A recipient's `document` that is not a valid document of its declared type. */
export class InvalidRecipientDocument extends DomainError {
  readonly documentType: 'cpf' | 'cnpj';
  readonly problem: DocumentProblem;
  readonly digits: number;
  constructor(documentType: 'cpf' | 'cnpj', problem: DocumentProblem, digits: number) {
    super();
    this.documentType = documentType;
    this.problem = problem;
    this.digits = digits;
  }
}

/** `pixKeyType` outside cpf, cnpj, email, phone, evp (after normalisation). */
export class InvalidPixKeyType extends DomainError {
  readonly received: unknown;
  constructor(received: unknown) {
    super();
    this.received = received;
  }
}

/** An e-mail, phone or EVP key that does not have its type's form. */
export class InvalidPixKey extends DomainError {
  readonly keyType: string;
  constructor(keyType: string) {
    super();
    this.keyType = keyType;
  }
}

/** A CPF/CNPJ key that is not the recipient's own document (registration). */
export class RecipientKeyNotDocument extends DomainError {}

/** The account used its recipient registrations of this UTC hour. */
export class RecipientRateLimited extends DomainError {}

/** Active plus pending_review recipients reached the account's ceiling. */
export class RecipientCeilingReached extends DomainError {
  readonly limit: number;
  constructor(limit: number) {
    super();
    this.limit = limit;
  }
}

/** No authorised recipient with this id on this account (unknown, in review or rejected). */
export class RecipientNotFound extends DomainError {}

/** The service team deactivated the recipient: withdrawals to it are refused. */
export class RecipientDeactivated extends DomainError {}

/** A review action on a recipient that is not in the status the action needs. */
export class RecipientInWrongStatus extends DomainError {
  readonly expected: string;
  readonly status: string;
  constructor(expected: string, status: string) {
    super();
    this.expected = expected;
    this.status = status;
  }
}
