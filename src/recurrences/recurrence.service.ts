/**
 * Pix Automático (/v1/recurrences; docs/decisions.md "Pix Automático"): a recurrence the payer authorises
 * once, created at the provider first and then kept, its consent asked by the chosen journey. Its cycles
 * are scheduled and followed by recurrence.cycles.ts; the provider's word on the recurrence is applied by
 * recurrence.sync.ts.
 */
import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import { ChargeRateLimited, InvalidCustomerDocument, InvalidCustomerDocumentType, ProviderUnavailable } from '../charges/charge.errors.ts';
import { chargePayload, checkAmount, dropUnshownCharge, merchantCityOf, merchantNameOf } from '../charges/charge.service.ts';
import { normalizeCustomerDocument } from '../charges/charge.validation.ts';
import { requireCalendarDate } from '../charges/dueCharge.service.ts';
import type { AccountRow, PayerAccountJson, RecurrenceStatus } from '../db/schema.ts';
import { retryWhileUnavailable, SWITCHOVER_RETRY_MS } from '../db/unavailable.ts';
import type { Deps } from '../platform/deps.ts';
import { addCalendarDays } from '../primitives/businessDays.ts';
import { buildRecurrenceBrCode } from '../primitives/brcode.ts';
import { decodeCursor, encodeCursor } from '../primitives/cursor.ts';
import { newId } from '../primitives/ids.ts';
import { saoPauloDay } from '../primitives/saoPaulo.ts';
import { ProviderFailure, ProviderLacks, ProviderTimeout, type RegisterRecurrenceInput, type RegisteredCharge } from '../provider/port.ts';
import { release, tryConsume, type Window } from '../ratelimit/rateLimit.repository.ts';
import { pageOf, positionAfter, rowsToRead } from '../transactions/listPage.ts';
import { InvalidCursor } from '../transactions/transaction.errors.ts';
import { earliestStartDate } from './recurrence.calendar.ts';
import { ConsentField, RecurrenceAmountBoth, RecurrenceEndBeforeStart, RecurrenceNotFound, RecurrencePayerDocument, RecurrencesUnavailable, RecurrenceStartDate } from './recurrence.errors.ts';
import {
  cycleCounts,
  cycleCountsOf,
  findRecurrence,
  findRecurrenceByExternalRef,
  insertRecurrence,
  listCycles,
  listRecurrences,
  lockRecurrence,
  insertFirstPayment,
  findCycle,
  type RecurrenceRow,
} from './recurrence.repository.ts';
import { dueDateOfSequence } from './recurrence.calendar.ts';
import { toCycleJson, toRecurrenceJson } from './recurrence.jsons.ts';
import { enqueueRecurrenceEvent } from './recurrence.events.ts';
import { sendVariableCycle } from './recurrence.sync.ts';

type CreateRecurrenceRequest = components['schemas']['CreateRecurrenceRequest'];
type RecurrenceJson = components['schemas']['Recurrence'];
type CycleJson = components['schemas']['RecurrenceCycle'];

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DEFAULT_CONSENT_DAYS = 7;
/** A first immediate payment (journey 3) is payable as long as an immediate charge's default. */
const FIRST_PAYMENT_LIFETIME_MS = HOUR_MS;
const RECURRENCE_ID = /^rec_[0-9a-f]{24}$/;
const SEQUENCE = /^\d{1,6}$/;
const RECENT_CYCLES = 12;

// ---- Reads ------------------------------------------------------------------------------------------------

/** The single read: the recurrence, its counts and its newest cycles. */
export async function recurrenceJson(deps: Pick<Deps, 'db'>, row: RecurrenceRow, idempotent = false): Promise<RecurrenceJson> {
  const [cycles, recentCycles] = await Promise.all([cycleCounts(deps.db, row.id), listCycles(deps.db, row.id, { limit: RECENT_CYCLES })]);
  return toRecurrenceJson(row, { cycles, recentCycles, idempotent });
}

export async function getRecurrence(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<RecurrenceJson> {
  const row = await findRecurrence(deps.db, accountId, id);
  if (!row) throw new RecurrenceNotFound();
  return recurrenceJson(deps, row);
}

export async function listRecurrencePage(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  options: { limit: number; cursor?: string | undefined; status?: RecurrenceStatus | undefined },
): Promise<components['schemas']['RecurrenceList']> {
  const after = positionAfter(options.cursor, RECURRENCE_ID);
  const rows = await listRecurrences(deps.db, accountId, { status: options.status, after, limit: rowsToRead(options.limit) });
  const { page, nextCursor } = pageOf(rows, options.limit, (row) => ({ createdAtUs: row.createdAtUs, id: row.id }));
  const counts = await cycleCountsOf(deps.db, page.map((row) => row.id));
  const items = page.map(({ createdAtUs: _position, ...row }) => toRecurrenceJson(row, { cycles: counts.get(row.id) ?? { total: 0, paid: 0, open: 0, failed: 0 } }));
  return { recurrences: items, count: items.length, ...(nextCursor !== undefined ? { nextCursor } : {}) };
}

export async function listCyclePage(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  id: string,
  options: { limit: number; cursor?: string | undefined },
): Promise<components['schemas']['RecurrenceCycleList']> {
  const recurrence = await findRecurrence(deps.db, accountId, id);
  if (!recurrence) throw new RecurrenceNotFound();
  let beforeSequence: number | undefined;
  if (options.cursor !== undefined) {
    const parts = decodeCursor(options.cursor, [SEQUENCE]);
    if (!parts) throw new InvalidCursor();
    beforeSequence = Number(parts[0]);
  }
  const rows = await listCycles(deps.db, id, { beforeSequence, limit: rowsToRead(options.limit) });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    cycles: page.map(toCycleJson),
    count: page.length,
    ...(rows.length > options.limit && last ? { nextCursor: encodeCursor([last.cycle.sequence]) } : {}),
  };
}

// ---- Creation ---------------------------------------------------------------------------------------------

/** A request checked against every rule (the 400s), as the provider's input under a new id. */
interface PreparedRecurrence {
  input: Omit<RegisterRecurrenceInput, 'consent'> & { consent: { journey: 'request'; payerAccount: PayerAccountJson; expiresAtMs: number } | { journey: 'qrcode' } | { journey: 'qrcode_with_payment'; firstPaymentCents: number; feeCents: number } };
  externalRef: string | undefined;
}

function payerOf(body: CreateRecurrenceRequest): RegisterRecurrenceInput['payer'] {
  try {
    const document = normalizeCustomerDocument(body.payer.document);
    return { name: body.payer.name.trim(), document: document.number, documentType: document.type };
  } catch (error) {
    if (error instanceof InvalidCustomerDocumentType) throw new RecurrencePayerDocument('type', 'cpf', 0, String(error.received));
    if (error instanceof InvalidCustomerDocument) throw new RecurrencePayerDocument(error.problem, error.documentType, error.digits, '');
    throw error;
  }
}

/** The consent's fields each journey takes: one it needs missing, or one it does not take, is a 400 naming it. */
function consentOf(account: AccountRow, consent: CreateRecurrenceRequest['consent'], nowMs: number): PreparedRecurrence['input']['consent'] {
  const { journey } = consent;
  const refuseExtra = (field: ConsentField['field'], present: boolean) => {
    if (present) throw new ConsentField(field, journey, 'not_for_journey');
  };
  if (journey === 'request') {
    refuseExtra('firstPaymentCents', consent.firstPaymentCents !== undefined);
    if (!consent.payerAccount) throw new ConsentField('payerAccount', journey, 'missing');
    const { ispb, branch, account: number } = consent.payerAccount;
    return { journey, payerAccount: { ispb, ...(branch !== undefined ? { branch } : {}), account: number }, expiresAtMs: nowMs + (consent.expiresInDays ?? DEFAULT_CONSENT_DAYS) * DAY_MS };
  }
  refuseExtra('payerAccount', consent.payerAccount !== undefined);
  refuseExtra('expiresInDays', consent.expiresInDays !== undefined);
  if (journey === 'qrcode') {
    refuseExtra('firstPaymentCents', consent.firstPaymentCents !== undefined);
    return { journey };
  }
  if (consent.firstPaymentCents === undefined) throw new ConsentField('firstPaymentCents', journey, 'missing');
  return { journey, firstPaymentCents: consent.firstPaymentCents, feeCents: checkAmount(account, consent.firstPaymentCents) };
}

/** Every rule of POST /v1/recurrences on one request. */
export function prepareRecurrence(auth: AccountContext, body: CreateRecurrenceRequest, nowMs: number): PreparedRecurrence {
  const today = saoPauloDay(nowMs);
  requireCalendarDate('startDate', body.startDate);
  requireCalendarDate('endDate', body.endDate);
  const payer = payerOf(body);
  const first = earliestStartDate(today);
  const last = addCalendarDays(today, 366);
  if (body.startDate < first) throw new RecurrenceStartDate('too_early', first);
  if (body.startDate > last) throw new RecurrenceStartDate('too_far', last);
  if (body.endDate !== undefined && body.endDate < body.startDate) throw new RecurrenceEndBeforeStart();
  if (body.amountCents !== undefined && body.minimumAmountCents !== undefined) throw new RecurrenceAmountBoth();
  if (body.amountCents !== undefined) checkAmount(auth.account, body.amountCents);
  if (body.minimumAmountCents !== undefined) checkAmount(auth.account, body.minimumAmountCents);
  const consent = consentOf(auth.account, body.consent, nowMs);
  return {
    input: {
      recurrenceId: newId('rec'),
      accountId: auth.accountId,
      payer,
      contract: body.contract.trim(),
      ...(body.object !== undefined ? { object: body.object.trim() } : {}),
      periodicity: body.periodicity,
      startDate: body.startDate,
      ...(body.endDate !== undefined ? { endDate: body.endDate } : {}),
      ...(body.amountCents !== undefined ? { amountCents: body.amountCents } : {}),
      ...(body.minimumAmountCents !== undefined ? { minimumAmountCents: body.minimumAmountCents } : {}),
      retryPolicy: body.retryPolicy ?? 'none',
      consent,
      createdAtMs: nowMs,
    },
    externalRef: body.externalRef,
  };
}

export type CreateRecurrenceOutcome = { kind: 'created' | 'replayed'; body: RecurrenceJson };

/**
 * POST /v1/recurrences: validated (400s), a slot of the charges' hourly window taken, the first payment's
 * immediate charge registered (journey 3), the recurrence registered at the provider with its consent asked
 * (all outside any database transaction), then stored with that charge, claiming its externalRef. A
 * repeated externalRef answers its recurrence (200), the slot given back; anything but a 201 gives it back.
 */
export async function createRecurrence(deps: Deps, auth: AccountContext, body: CreateRecurrenceRequest): Promise<CreateRecurrenceOutcome> {
  const { account } = auth;
  const nowMs = deps.clock.now();
  const prepared = prepareRecurrence(auth, body, nowMs);
  const { externalRef } = prepared;
  const replay = async (): Promise<CreateRecurrenceOutcome | undefined> => {
    const found = externalRef === undefined ? undefined : await findRecurrenceByExternalRef(deps.db, auth.accountId, externalRef);
    return found ? { kind: 'replayed', body: await recurrenceJson(deps, found, true) } : undefined;
  };
  const earlier = await replay();
  if (earlier) return earlier;
  if (!deps.provider.capabilities.recurrences) throw new RecurrencesUnavailable();

  const window: Window = { bucket: 'charge:hour', windowMs: HOUR_MS, limit: account.charge_rate_per_hour };
  const slot = await retryWhileUnavailable(() => tryConsume(deps.db, auth.accountId, window, nowMs), { timeoutMs: SWITCHOVER_RETRY_MS, firstPauseMs: 100 });
  if (!slot) throw new ChargeRateLimited();
  let released = false;
  const giveBack = async () => {
    if (!released) await release(deps.db, auth.accountId, slot);
    released = true;
  };
  // What the provider holds that nobody will be shown if this request stores nothing: removed (not awaited).
  let unshown: { chargeId: string; chargeRef: string } | undefined;
  let unstoredRecurrenceRef: string | undefined;
  try {
    const { input } = prepared;
    let firstPayment: { id: string; registered: RegisteredCharge; amountCents: number; feeCents: number } | undefined;
    if (input.consent.journey === 'qrcode_with_payment') {
      const id = newId('tx');
      const amountCents = input.consent.firstPaymentCents;
      const registered = await deps.provider.registerCharge({
        transactionId: id,
        accountId: auth.accountId,
        amountCents,
        createdAtMs: nowMs,
        expiresAtMs: nowMs + FIRST_PAYMENT_LIFETIME_MS,
        debtor: input.payer,
      });
      firstPayment = { id, registered, amountCents, feeCents: input.consent.feeCents };
      unshown = { chargeId: id, chargeRef: registered.providerRef };
    }
    const consent: RegisterRecurrenceInput['consent'] =
      input.consent.journey === 'qrcode_with_payment'
        ? { journey: 'qrcode_with_payment', chargeRef: firstPayment?.registered.providerRef ?? '', firstPaymentCents: input.consent.firstPaymentCents }
        : input.consent;
    const registered = await deps.provider.registerRecurrence({ ...input, consent });
    unstoredRecurrenceRef = registered.providerRef;
    const pixPayload =
      registered.pixPayload ??
      (registered.locationUrl === undefined
        ? null
        : buildRecurrenceBrCode({
            merchantName: merchantNameOf(account),
            merchantCity: merchantCityOf(account),
            recurrenceLocationUrl: registered.locationUrl,
            ...(firstPayment ? { chargeLocationUrl: firstPayment.registered.locationUrl, amountCents: firstPayment.amountCents } : {}),
          }));
    const at = new Date(nowMs);
    const claimed = await deps.db.transaction().execute(async (trx) => {
      const inserted = await insertRecurrence(trx, {
        id: input.recurrenceId,
        account_id: auth.accountId,
        provider_ref: registered.providerRef,
        status: 'created',
        payer: JSON.stringify(input.payer),
        contract: input.contract,
        object: input.object ?? null,
        periodicity: input.periodicity,
        start_date: input.startDate,
        end_date: input.endDate ?? null,
        amount_cents: input.amountCents ?? null,
        minimum_amount_cents: input.minimumAmountCents ?? null,
        retry_policy: input.retryPolicy,
        consent_journey: input.consent.journey,
        consent_status: 'pending',
        consent_ref: registered.consentRef ?? null,
        consent_expires_at: input.consent.journey === 'request' ? new Date(input.consent.expiresAtMs) : null,
        payer_account: input.consent.journey === 'request' ? JSON.stringify(input.consent.payerAccount) : null,
        pix_payload: pixPayload,
        first_payment_id: firstPayment?.id ?? null,
        history: JSON.stringify([{ status: 'created', atMs: nowMs }]),
        next_cycle_date: dueDateOfSequence(input, 1) ?? null,
        external_ref: externalRef ?? null,
        created_at: at,
        updated_at: at,
      });
      if (!inserted) {
        // A concurrent request with this externalRef stored its recurrence first: this one is not kept.
        throw new LostExternalRef();
      }
      const created = await lockRecurrence(trx, input.recurrenceId);
      if (created) await enqueueRecurrenceEvent(trx, 'recurrence.created', created, at);
      if (firstPayment) {
        await insertFirstPayment(trx, {
          id: firstPayment.id,
          accountId: auth.accountId,
          recurrenceId: input.recurrenceId,
          amountCents: firstPayment.amountCents,
          feeCents: firstPayment.feeCents,
          pixPayload: chargePayload(firstPayment.registered, account, firstPayment.amountCents),
          providerRef: firstPayment.registered.providerRef,
          expiresAt: new Date(nowMs + FIRST_PAYMENT_LIFETIME_MS),
          at,
        });
      }
      return true;
    }).catch((error: unknown) => {
      if (error instanceof LostExternalRef) return false;
      throw error;
    });
    if (!claimed) {
      await giveBack();
      const replayed = await replay();
      if (replayed) return replayed;
      throw new Error(`externalRef ${externalRef} claimed by a recurrence that is not readable`);
    }
    unshown = undefined;
    unstoredRecurrenceRef = undefined;
    const stored = await findRecurrence(deps.db, auth.accountId, input.recurrenceId);
    if (!stored) throw new Error(`recurrence ${input.recurrenceId} stored but not readable`);
    deps.logger.info('recurrence created', { recurrenceId: stored.id, journey: stored.consent_journey });
    return { kind: 'created', body: await recurrenceJson(deps, stored) };
  } catch (error) {
    await giveBack();
    if (error instanceof ProviderLacks) throw new RecurrencesUnavailable();
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) {
      const replayed = await replay();
      if (replayed) return replayed;
      throw new ProviderUnavailable();
    }
    throw error;
  } finally {
    if (unshown) dropUnshownCharge(deps, unshown.chargeId, unshown.chargeRef);
    if (unstoredRecurrenceRef !== undefined) {
      const ref = unstoredRecurrenceRef;
      void deps.provider.cancelRecurrence(ref).catch((error: unknown) => deps.logger.warn('unused recurrence not cancelled at the provider', { providerRef: ref, error: String(error) }));
    }
  }
}

/** POST /v1/recurrences/{id}/cycles: a variable-amount recurrence's next cycle, sent with the merchant's amount. */
export async function sendCycle(deps: Deps, accountId: string, id: string, amountCents: number): Promise<CycleJson> {
  const transactionId = await sendVariableCycle(deps, accountId, id, amountCents);
  const cycle = await findCycle(deps.db, transactionId);
  if (!cycle) throw new Error(`cycle ${transactionId} sent but not readable`);
  return toCycleJson(cycle);
}

/** The externalRef was claimed by a concurrent request first (the transaction is rolled back). */
class LostExternalRef extends Error {}
