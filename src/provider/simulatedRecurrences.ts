/**
 * The simulated provider's Pix Automático, playing both the receiver's PSP and the payer's bank: its records
 * of recurrences (`sim_psp_recurrences`) and of cycles' charges (`sim_psp_recurring_charges`), with the
 * standard's rules (API Pix 2.9.0 `rec`, `solicrec`, `cobr`): a cycle's charge only for an approved
 * recurrence, one per cycle; its first attempt on the settlement date; another attempt only under
 * `PERMITE_3R_7D`, at most three, one open at a time, a future date within seven days; the refusal codes the
 * standard says end the charge. The payer's bank debits an attempt on its date when nothing else was
 * scripted (a read on or after that date finds it paid), as a payer with funds would be.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, EndedBy, PartyJson, RecurrenceEndedJson, RecurrenceStatus } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { generateEndToEndId } from '../primitives/endToEndId.ts';
import { saoPauloDay } from '../primitives/saoPaulo.ts';
import { lastAttemptDate, nextRetryDate, settlementDateOf } from '../recurrences/recurrence.calendar.ts';
import { insertReceived } from './simulatedBooks.repository.ts';
import { activeSimChargesOf, changeSimCharge, changeSimRecurrence, findSimCharge, findSimRecurrence, insertSimCharge, insertSimRecurrence, simChargesOf } from './simulatedRecurrences.repository.ts';
import type {
  ProviderCycleAttempt,
  ProviderRecurrence,
  ProviderRecurringCharge,
  RegisterRecurrenceInput,
  RegisterRecurringChargeInput,
  RegisteredRecurrence,
} from './port.ts';

/** The attempt refusals after which the standard ends the charge (`REJEITADA`), whatever the policy. */
export const FINAL_REFUSAL_CODES: ReadonlySet<string> = new Set(['AC05', 'AM09', 'DENC', 'DS27', 'DTED', 'MIDI', 'MSUC', 'NITX', 'RC09']);

interface SimRecurrence extends ProviderRecurrence {
  /** Journey 3: the immediate charge paid in the same reading, and its amount. */
  firstPayment?: { chargeRef: string; amountCents: number } | undefined;
  journey: RegisterRecurrenceInput['consent']['journey'];
  retryPolicy: RegisterRecurrenceInput['retryPolicy'];
  amountCents?: number | undefined;
  minimumAmountCents?: number | undefined;
  consentExpiresAtMs?: number | undefined;
  payer: RegisterRecurrenceInput['payer'];
}

type SimCharge = Exclude<ProviderRecurringCharge, { state: 'not_found' }> & {
  dueDate: string;
  settlementDate: string;
  amountCents: number;
  retryPolicy: RegisterRecurrenceInput['retryPolicy'];
  recurrenceRef: string;
};

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function alphanumeric(length: number): string {
  return Array.from(randomBytes(length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
}

export class SimulatedRecurrences {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly ispb: string;

  constructor(db: Kysely<Database>, clock: Clock, ispb: string) {
    this.db = db;
    this.clock = clock;
    this.ispb = ispb;
  }

  private today(): string {
    return saoPauloDay(this.clock.now());
  }

  // ---- The receiver's PSP ---------------------------------------------------------------------------------

  /** `POST /rec` (an `idRec` as the standard forms it: R, R/N by the retry policy, ISPB, date, 11 characters), then the consent's journey. */
  async register(input: RegisterRecurrenceInput): Promise<RegisteredRecurrence> {
    const nowMs = this.clock.now();
    const idRec = `R${input.retryPolicy === 'three_in_seven_days' ? 'R' : 'N'}${this.ispb}${this.today().replaceAll('-', '')}${alphanumeric(11)}`;
    const consentRef = input.consent.journey === 'request' ? `SC${this.ispb}${this.today().replaceAll('-', '')}${alphanumeric(11)}` : undefined;
    const record: SimRecurrence = {
      status: 'created',
      journey: input.consent.journey,
      retryPolicy: input.retryPolicy,
      amountCents: input.amountCents,
      minimumAmountCents: input.minimumAmountCents,
      payer: input.payer,
      ...(input.consent.journey === 'qrcode_with_payment' ? { firstPayment: { chargeRef: input.consent.chargeRef, amountCents: input.consent.firstPaymentCents } } : {}),
      ...(input.consent.journey === 'request' ? { consentStatus: 'pending' as const, consentExpiresAtMs: input.consent.expiresAtMs } : {}),
      history: [{ status: 'created', atMs: nowMs }],
    };
    await insertSimRecurrence(this.db, {
      idRec,
      body: { ...record },
      status: record.status,
      solicrecId: consentRef ?? null,
      chargeRef: input.consent.journey === 'qrcode_with_payment' ? input.consent.chargeRef : null,
      at: new Date(nowMs),
    });
    const locationUrl = input.consent.journey === 'request' ? undefined : `pix.pixgate.com.br/qr/v2/rec/${randomBytes(16).toString('hex')}`;
    return { providerRef: idRec, ...(consentRef ? { consentRef } : {}), ...(locationUrl ? { locationUrl } : {}) };
  }

  private async find(idRec: string): Promise<SimRecurrence | undefined> {
    return (await findSimRecurrence(this.db, idRec)) as SimRecurrence | undefined;
  }

  /** A consent request past its expiry is expired, and its recurrence with it (the payer never answered). */
  async read(idRec: string): Promise<ProviderRecurrence | undefined> {
    const record = await this.find(idRec);
    if (!record) return undefined;
    if (record.status === 'created' && record.consentExpiresAtMs !== undefined && record.consentExpiresAtMs <= this.clock.now()) {
      await this.end(idRec, 'expired', { reason: 'expired' }, 'expired');
      return this.read(idRec);
    }
    const { status, consentStatus, activation, payerMaximumCents, ended, history } = record;
    return { status, consentStatus, activation, payerMaximumCents, ended, history };
  }

  /** Changes a recurrence under its row's lock; false when `allowed` refuses its current record. */
  private async change(idRec: string, allowed: (record: SimRecurrence) => boolean, apply: (record: SimRecurrence, nowMs: number) => SimRecurrence): Promise<boolean> {
    const nowMs = this.clock.now();
    const changed = await changeSimRecurrence<Record<string, unknown>>(
      this.db,
      idRec,
      (body) => {
        const record = body as unknown as SimRecurrence;
        if (!allowed(record)) return undefined;
        const next = apply(record, nowMs);
        return { body: { ...next }, status: next.status };
      },
      new Date(nowMs),
    );
    return changed !== undefined;
  }

  private end(idRec: string, status: RecurrenceStatus, ended: RecurrenceEndedJson, consentStatus?: SimRecurrence['consentStatus']): Promise<boolean> {
    return this.change(
      idRec,
      (record) => record.status === 'created' || (status === 'cancelled' && record.status === 'approved'),
      (record, nowMs) => ({
        ...record,
        status,
        ended,
        ...(record.consentStatus === 'pending' ? { consentStatus: consentStatus ?? (status === 'cancelled' ? 'cancelled' : status === 'rejected' ? 'rejected' : 'expired') } : {}),
        history: [...record.history, { status, atMs: nowMs }],
      }),
    );
  }

  /** `PATCH /rec/{idRec}` `CANCELADA` by the receiving user; its cycles not yet debited are cancelled with it. */
  async cancel(idRec: string): Promise<boolean> {
    const done = await this.end(idRec, 'cancelled', { reason: 'cancelled', by: 'merchant', code: 'SLCR', description: 'Cancelada pelo usuário recebedor.' });
    if (done) await this.cancelOpenCharges(idRec, 'merchant');
    return done;
  }

  /** `PUT /cobr/{txid}`: only for an approved recurrence, one per due date, not due before today. */
  async registerCharge(input: RegisterRecurringChargeInput): Promise<{ providerRef: string } | 'refused'> {
    const recurrence = await this.find(input.recurrenceRef);
    if (!recurrence || recurrence.status !== 'approved' || input.dueDate < this.today()) return 'refused';
    const txid = input.transactionId.replace(/^tx_/, '').padEnd(26, '0');
    const existing = await simChargesOf(this.db, input.recurrenceRef);
    if (existing.some((row) => row.txid === txid)) return { providerRef: txid };
    const open = existing.map((row) => row.body as SimCharge).some((charge) => charge.dueDate === input.dueDate && charge.state !== 'rejected' && charge.state !== 'cancelled');
    if (open) return 'refused';
    const nowMs = this.clock.now();
    const settlementDate = settlementDateOf(input.dueDate);
    const charge: SimCharge = {
      state: 'active',
      dueDate: input.dueDate,
      settlementDate,
      amountCents: input.amountCents,
      retryPolicy: input.retryPolicy,
      recurrenceRef: input.recurrenceRef,
      attempts: [{ date: settlementDate, kind: 'scheduled', status: 'scheduled' }],
      payments: [],
    };
    await insertSimCharge(this.db, { txid, idRec: input.recurrenceRef, body: { ...charge }, status: charge.state, at: new Date(nowMs) });
    return { providerRef: txid };
  }

  /**
   * A cycle's charge as the provider reports it. The payer's bank debits an open attempt whose day has come
   * (a payer with funds), and a charge with no attempt left past its last day is expired.
   */
  async readCharge(txid: string): Promise<ProviderRecurringCharge> {
    const body = await findSimCharge(this.db, txid);
    if (!body) return { state: 'not_found' };
    const charge = body as unknown as SimCharge;
    const today = this.today();
    const open = charge.attempts.at(-1);
    if (charge.state === 'active' && open?.status === 'scheduled' && open.date <= today) {
      await this.debit(txid, undefined);
      return this.readCharge(txid);
    }
    if (charge.state === 'active' && open?.status !== 'scheduled' && today > lastAttemptDate(charge.settlementDate, charge.retryPolicy)) {
      await this.changeCharge(txid, (current) => current.state === 'active', (current) => ({ ...current, state: 'expired' }));
      return this.readCharge(txid);
    }
    const { state, attempts, refusal, cancelledBy, payments } = charge;
    return { state, attempts, refusal, cancelledBy, payments };
  }

  private async changeCharge(txid: string, allowed: (charge: SimCharge) => boolean, apply: (charge: SimCharge) => SimCharge, afterwards?: (charge: SimCharge, trx: Transaction<Database>) => Promise<void>): Promise<SimCharge | undefined> {
    const changed = await changeSimCharge<Record<string, unknown>>(
      this.db,
      txid,
      (body) => {
        const charge = body as unknown as SimCharge;
        if (!allowed(charge)) return undefined;
        const next = apply(charge);
        return { body: { ...next }, status: next.state };
      },
      new Date(this.clock.now()),
      afterwards ? (body, trx) => afterwards(body as unknown as SimCharge, trx) : undefined,
    );
    return changed as unknown as SimCharge | undefined;
  }

  /** `POST /cobr/{txid}/retentativa/{data}`: the standard's violations refuse it. */
  async retry(txid: string, date: string): Promise<boolean> {
    const today = this.today();
    const changed = await this.changeCharge(
      txid,
      (charge) => {
        const retries = charge.attempts.filter((attempt) => attempt.kind === 'retry').length;
        const open = charge.attempts.some((attempt) => attempt.status === 'scheduled');
        const allowed = nextRetryDate({ settlementDate: charge.settlementDate, policy: charge.retryPolicy, retriesMade: retries, today });
        return charge.state === 'active' && !open && date > today && allowed !== undefined && date <= lastAttemptDate(charge.settlementDate, charge.retryPolicy);
      },
      (charge) => ({ ...charge, attempts: [...charge.attempts, { date, kind: 'retry', status: 'scheduled' }] }),
    );
    return changed !== undefined;
  }

  /** `PATCH /cobr/{txid}` `CANCELADA`: refused on or after the open attempt's date (the standard's violation). */
  async cancelCharge(txid: string, by: EndedBy = 'merchant', code = 'SLCR'): Promise<boolean> {
    const today = this.today();
    const changed = await this.changeCharge(
      txid,
      (charge) => charge.state === 'active' && (by !== 'merchant' || !charge.attempts.some((attempt) => attempt.status === 'scheduled' && attempt.date <= today)),
      (charge) => ({
        ...charge,
        state: 'cancelled',
        cancelledBy: by,
        refusal: { code, description: by === 'merchant' ? 'Cancelada pelo usuário recebedor.' : 'Cancelada pelo usuário pagador.' },
        attempts: charge.attempts.map((attempt) => (attempt.status === 'scheduled' ? { ...attempt, status: 'cancelled' } : attempt)),
      }),
    );
    return changed !== undefined;
  }

  private async cancelOpenCharges(idRec: string, by: EndedBy): Promise<void> {
    for (const txid of await activeSimChargesOf(this.db, idRec)) await this.cancelCharge(txid, by === 'merchant' ? 'merchant' : by, by === 'merchant' ? 'SLCR' : 'ACCT');
  }

  // ---- The payer's bank (the sandbox) ---------------------------------------------------------------------

  /** The payer answers the consent: approves (how, and up to what on a variable amount), rejects (AP13, AP14), or lets it expire. */
  async answerConsent(idRec: string, answer: { outcome: 'approve'; payerMaximumCents?: number | undefined } | { outcome: 'reject'; code: string } | { outcome: 'expire' }): Promise<boolean> {
    if (answer.outcome === 'reject') return this.end(idRec, 'rejected', { reason: 'rejected', by: 'payer', code: answer.code, description: 'Rejeitada pelo usuário pagador.' }, 'rejected');
    if (answer.outcome === 'expire') return this.end(idRec, 'expired', { reason: 'expired' }, 'expired');
    const approved = await this.change(
      idRec,
      (record) => record.status === 'created' && (answer.payerMaximumCents === undefined || record.amountCents === undefined) && (answer.payerMaximumCents ?? Infinity) >= (record.minimumAmountCents ?? 0),
      (record, nowMs) => ({
        ...record,
        status: 'approved',
        ...(record.consentStatus ? { consentStatus: 'accepted' as const } : {}),
        activation: { journey: record.journey, atMs: nowMs },
        ...(answer.payerMaximumCents !== undefined ? { payerMaximumCents: answer.payerMaximumCents } : {}),
        history: [...record.history, { status: 'approved', atMs: nowMs }],
      }),
    );
    // Journey 3: the payer pays the immediate charge in the same reading of the composite QR code.
    const first = approved ? (await this.find(idRec))?.firstPayment : undefined;
    if (first) {
      const nowMs = this.clock.now();
      const endToEndId = generateEndToEndId({ ispb: PAYER_BANK.bankAccount.ispb, atMs: nowMs, kind: 'E' });
      await insertReceived(this.db, { endToEndId, providerRef: first.chargeRef, amountCents: first.amountCents, payer: PAYER_BANK, at: new Date(nowMs) });
    }
    return approved;
  }

  /** The payer (or their bank) cancels an approved recurrence; its open cycles are cancelled with it. */
  async cancelAsPayer(idRec: string, code: string, by: 'payer' | 'payer_bank' = 'payer'): Promise<boolean> {
    const done = await this.end(idRec, 'cancelled', { reason: 'cancelled', by, code, description: by === 'payer' ? 'Cancelada pelo usuário pagador.' : 'Cancelada pelo PSP pagador.' });
    if (done) await this.cancelOpenCharges(idRec, by);
    return done;
  }

  /**
   * The payer's bank answers the open attempt now: debits it (a received Pix naming the charge's txid), or
   * refuses it with a code; a final code, or no retry left under the policy, ends the charge `rejected`.
   */
  async debit(txid: string, refusal: { code: string; description?: string | undefined } | undefined, payer?: PartyJson): Promise<string | undefined | false> {
    const nowMs = this.clock.now();
    const today = this.today();
    let endToEndId: string | undefined;
    const changed = await this.changeCharge(
      txid,
      (charge) => charge.state === 'active' && charge.attempts.at(-1)?.status === 'scheduled',
      (charge) => {
        const attempts = [...charge.attempts];
        const open = attempts.pop() as ProviderCycleAttempt;
        if (!refusal) {
          endToEndId = generateEndToEndId({ ispb: (payer ?? PAYER_BANK).bankAccount.ispb, atMs: nowMs, kind: 'E' });
          return { ...charge, state: 'completed', attempts: [...attempts, { ...open, status: 'paid', endToEndId }], payments: [endToEndId] };
        }
        const description = refusal.description ?? `Recusada pelo banco do pagador (código ${refusal.code}).`;
        const refused: ProviderCycleAttempt = { ...open, status: 'refused', refusal: { code: refusal.code, description } };
        const retries = attempts.filter((attempt) => attempt.kind === 'retry').length + (open.kind === 'retry' ? 1 : 0);
        const retryLeft = nextRetryDate({ settlementDate: charge.settlementDate, policy: charge.retryPolicy, retriesMade: retries, today }) !== undefined;
        const final = FINAL_REFUSAL_CODES.has(refusal.code) || !retryLeft;
        return { ...charge, attempts: [...attempts, refused], ...(final ? { state: 'rejected' as const, refusal: { code: refusal.code, description } } : {}) };
      },
      async (charge, trx) => {
        if (endToEndId) {
          await insertReceived(trx, { endToEndId, providerRef: txid, amountCents: charge.amountCents, payer: payer ?? PAYER_BANK, at: new Date(nowMs) });
        }
      },
    );
    if (!changed) return false;
    return endToEndId;
  }
}

/** The sandbox's payer of a recurrence's cycles. */
const PAYER_BANK: PartyJson = {
  name: 'PAGADOR SANDBOX',
  document: '52998224725',
  documentType: 'cpf',
  bankAccount: { ispb: '99999004', branch: '0001', account: '123456-7' },
};
