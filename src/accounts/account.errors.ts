import { DomainError, type DocumentProblem } from '../platform/domainError.ts';

/** No `Authorization: Bearer <key>` header. */
export class ApiKeyMissing extends DomainError {}

/** A key that is malformed, unknown or revoked. */
export class ApiKeyInvalid extends DomainError {}

/** The account's KYC is not approved. */
export class AccountNotApproved extends DomainError {}

/** The service team blocked the account. */
export class AccountBlocked extends DomainError {}

/** Which 403 text an IP refusal uses: the contract words it per endpoint family. */
export type IpMessageFamily = 'default' | 'withdraw' | 'recipients';

/** The request comes from an address outside the account's allowlist; the text depends on the endpoint. */
export class IpNotAllowed extends DomainError {
  readonly family: IpMessageFamily;
  constructor(family: IpMessageFamily) {
    super();
    this.family = family;
  }
}

export class AccountNotFound extends DomainError {}

/** GET /admin/v1/accounts with a `kycStatus`, `limit` or `cursor` it does not accept. */
export class InvalidAccountListQuery extends DomainError {
  readonly parameter: 'kycStatus' | 'limit' | 'cursor' | 'emailVerified';
  constructor(parameter: 'kycStatus' | 'limit' | 'cursor' | 'emailVerified') {
    super();
    this.parameter = parameter;
  }
}

export class ApiKeyNotFound extends DomainError {}

/** Keys are generated only for accounts with approved KYC (contract, Authentication item 3). */
export class ApiKeysNeedApprovedKyc extends DomainError {}

/** A responsible party's CPF or a company's CNPJ given at onboarding that is not a valid document. */
export class InvalidAccountDocument extends DomainError {
  readonly field: string;
  readonly documentType: 'cpf' | 'cnpj';
  readonly problem: DocumentProblem;
  constructor(field: string, documentType: 'cpf' | 'cnpj', problem: DocumentProblem) {
    super();
    this.field = field;
    this.documentType = documentType;
    this.problem = problem;
  }
}

/** An account setting change whose charge range would end below its start. */
export class InvalidChargeRange extends DomainError {}
