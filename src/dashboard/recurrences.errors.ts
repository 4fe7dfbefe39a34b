import { DomainError } from '../platform/domainError.ts';

/**
 * Refusals of Pix Automático as the dashboard says them (src/dashboard/recurrences.service.ts): the /v1
 * service's own errors name API fields (`startDate`, `consent.payerAccount`) and status words, so the page's
 * operations answer in Portuguese with the form's label instead, beside its field (`field`), with the /v1
 * operation's status.
 */
abstract class DashboardRecurrenceRefusal extends DomainError {
  readonly text: string;
  readonly field: string | undefined;
  constructor(text: string, field?: string) {
    super();
    this.text = text;
    this.field = field;
  }
}

/** A field of the form breaks a rule (400). */
export class RecurrenceFormRefused extends DashboardRecurrenceRefusal {}
/** Nothing to show (404): the consent's QR code of a recurrence that no longer waits for one. */
export class RecurrenceQrCodeAbsent extends DashboardRecurrenceRefusal {}
/** The recurrence's or the cycle's status does not allow the action (409). */
export class RecurrenceActionRefused extends DashboardRecurrenceRefusal {}
