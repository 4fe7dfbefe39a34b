import { DomainError } from '../platform/domainError.ts';

/** A sandbox action asked of a server that does not run the simulated PSP. */
export class SimulatedProviderRequired extends DomainError {}

/** The provider could not be reached or failed (a back-office action that reads it): nothing changed. */
export class ProviderUnreachable extends DomainError {}
