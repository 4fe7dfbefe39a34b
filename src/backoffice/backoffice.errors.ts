import { DomainError } from '../platform/domainError.ts';

/** A back-office request without the operator token, or with a wrong one. */
export class OperatorTokenInvalid extends DomainError {}
