import { DomainError } from '../platform/domainError.ts';

/** A sandbox action asked of a server that does not run the simulated PSP. */
export class SimulatedProviderRequired extends DomainError {}
