import type { components as api } from '../../generated/api-types.ts';
import type { components as dashboard } from '../../generated/dashboard-types.ts';
import { AmountAboveMaximum, AmountAbovePermitted, AmountBelowMinimum, AmountBelowPermitted } from '../charges/charge.errors.ts';
import { qrImage, type QrImage } from '../charges/charge.qrcode.ts';
import { checkAmount } from '../charges/charge.service.ts';
import { ImpossibleDate } from '../charges/dueCharge.errors.ts';
import type { RecurrenceStatus } from '../db/schema.ts';
import { formatBrl } from '../messages/merchant.ts';
import { DASHBOARD_LABELS, dashboardTexts as dash, labelOf } from '../messages/fields.ts';
import type { Deps } from '../platform/deps.ts';
import { addCalendarDays } from '../primitives/businessDays.ts';
import { saoPauloDay } from '../primitives/saoPaulo.ts';
import { toCycleJson } from '../recurrences/recurrence.jsons.ts';
import { ConsentField, RecurrenceAmountBoth, RecurrenceCycleNotFound, RecurrenceEndBeforeStart, RecurrenceNotCancellable, RecurrencePayerDocument, RecurrenceSandboxRefused, RecurrenceStartDate } from '../recurrences/recurrence.errors.ts';
import { findCycle } from '../recurrences/recurrence.repository.ts';
import { sandboxAnswerConsent, sandboxCancelAsPayer, sandboxCancelCycleAsPayer, sandboxDebitCycle, sandboxRunRecurrences } from '../recurrences/recurrence.sandbox.ts';
import { createRecurrence, getRecurrence, listCyclePage, listRecurrencePage, recurrenceJson, type CreateRecurrenceOutcome } from '../recurrences/recurrence.service.ts';
import { cancelRecurrenceForMerchant } from '../recurrences/recurrence.sync.ts';
import { DueChargeDayInvalid } from './dueCharges.errors.ts';
import { actingAccount } from './dueCharges.service.ts';
import { RecurrenceActionRefused, RecurrenceFormRefused, RecurrenceQrCodeAbsent } from './recurrences.errors.ts';
import { recurrenceFigures } from './recurrences.repository.ts';
import { sandboxAvailable } from './sandbox.service.ts';
import { SandboxUnavailable } from './dashboard.errors.ts';
import type { DashboardPrincipal } from './session.service.ts';

type Recurrence = api['schemas']['Recurrence'];
type Cycle = api['schemas']['RecurrenceCycle'];
type CreateRecurrenceRequest = api['schemas']['CreateRecurrenceRequest'];

/** The days ahead the overview counts the cycles falling due in. */
const DUE_WINDOW_DAYS = 7;

/** A recurrence's or a cycle's status as the pages name it. */
const STATUS_TEXT: Readonly<Record<string, string>> = {
  created: 'aguardando o pagador',
  approved: 'ativa',
  rejected: 'rejeitada',
  expired: 'expirada',
  cancelled: 'cancelada',
};
/** How the form names each consent journey. */
const JOURNEY_TEXT: Readonly<Record<string, string>> = {
  request: 'pedida ao banco do pagador',
  qrcode: 'por QR code',
  qrcode_with_payment: 'por QR code com primeiro pagamento',
};
const dayText = (date: string): string => date.split('-').reverse().join('/');

const label = (field: string) => labelOf(field, DASHBOARD_LABELS);

/** An amount's refusal beside its own field (the fixed amount, or the first payment), in reais. */
function amountRefusal(field: string, error: unknown): RecurrenceFormRefused | undefined {
  const text =
    error instanceof AmountBelowMinimum
      ? `o mínimo é ${formatBrl(error.minimumCents)}.`
      : error instanceof AmountAboveMaximum
        ? `o máximo é ${formatBrl(error.maximumCents)}.`
        : error instanceof AmountBelowPermitted
          ? `o mínimo permitido é ${formatBrl(error.minimumCents)} (o valor precisa cobrir a tarifa).`
          : error instanceof AmountAbovePermitted
            ? `o máximo permitido é ${formatBrl(error.maximumCents)}.`
            : undefined;
  return text === undefined ? undefined : new RecurrenceFormRefused(`${label(field)}: ${text}`, field);
}

/** The /v1 service's refusals in the dashboard's words (labels, Portuguese statuses, dates as people write them); anything else as it is. */
export function inDashboardWords(error: unknown): unknown {
  if (error instanceof RecurrenceStartDate) {
    return new RecurrenceFormRefused(
      error.problem === 'too_early'
        ? `${label('startDate')}: deve ser a partir de ${dayText(error.limit)} (a cobrança precisa chegar ao banco do pagador 2 dias antes).`
        : `${label('startDate')}: deve ser até ${dayText(error.limit)} (no máximo 1 ano à frente).`,
      'startDate',
    );
  }
  if (error instanceof RecurrenceEndBeforeStart) return new RecurrenceFormRefused(`${label('endDate')}: deve ser igual ou posterior à data de início.`, 'endDate');
  if (error instanceof RecurrenceAmountBoth) return new RecurrenceFormRefused(`${label('amountCents')}: informe um valor fixo ou um valor mínimo, não os dois.`, 'amountCents');
  if (error instanceof ImpossibleDate) return new DueChargeDayInvalid(error.field);
  if (error instanceof RecurrencePayerDocument) {
    if (error.problem === 'type') return new RecurrenceFormRefused(dash.customerDocumentType, 'payer.document.type');
    const text =
      error.problem === 'characters'
        ? dash.customerCharacters
        : error.problem === 'length'
          ? error.documentType === 'cpf'
            ? dash.customerCpfLength(error.digits)
            : dash.customerCnpjLength(error.digits)
          : error.documentType === 'cpf'
            ? dash.customerCpfInvalid
            : dash.customerCnpjInvalid;
    return new RecurrenceFormRefused(text, 'payer.document.number');
  }
  if (error instanceof ConsentField) {
    const field = `consent.${error.field}`;
    const journey = JOURNEY_TEXT[error.journey] ?? 'desta forma';
    return new RecurrenceFormRefused(
      error.problem === 'missing' ? `${label(field)}: obrigatório quando a autorização é ${journey}.` : `${label(field)}: não se aplica quando a autorização é ${journey}; deixe em branco.`,
      field,
    );
  }
  if (error instanceof RecurrenceNotCancellable) return new RecurrenceActionRefused(`A recorrência não pode ser cancelada: ela está ${STATUS_TEXT[error.status] ?? 'encerrada'}.`);
  if (error instanceof RecurrenceSandboxRefused) {
    // A cycle's refusal carries the status read before the action: said without it.
    const where = STATUS_TEXT[error.status] !== undefined ? `a recorrência está ${STATUS_TEXT[error.status]}` : 'o ciclo não tem débito em aberto (já foi pago, recusado ou cancelado)';
    return new RecurrenceActionRefused(`O banco do pagador (sandbox) não aceita esta ação agora: ${where}.`);
  }
  return error;
}

async function inWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw inDashboardWords(error);
  }
}

/**
 * "Nova recorrência": exactly POST /v1/recurrences's service (rules, limits, idempotency by externalRef,
 * events) for the signed-in user's account; an amount's refusal beside its own field (the fixed amount or
 * the first payment), every refusal in the form's words.
 */
export async function dashboardRecurrence(deps: Deps, principal: DashboardPrincipal, body: CreateRecurrenceRequest): Promise<CreateRecurrenceOutcome> {
  const auth = actingAccount(principal);
  const amounts: [string, number | undefined][] = [
    ['amountCents', body.amountCents],
    ['minimumAmountCents', body.minimumAmountCents],
    ['consent.firstPaymentCents', body.consent.firstPaymentCents],
  ];
  for (const [field, cents] of amounts) {
    if (cents === undefined) continue;
    try {
      checkAmount(auth.account, cents);
    } catch (error) {
      throw amountRefusal(field, error) ?? error;
    }
  }
  return inWords(() => createRecurrence(deps, auth, body));
}

/** "Recorrências": GET /v1/recurrences's page. */
export function dashboardRecurrences(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  filters: { limit: number; cursor?: string | undefined; status?: RecurrenceStatus | undefined },
): Promise<api['schemas']['RecurrenceList']> {
  return listRecurrencePage(deps, accountId, filters);
}

/** One recurrence of the account (another account's: 404 as unknown). */
export function dashboardRecurrenceOf(deps: Pick<Deps, 'db'>, accountId: string, recurrenceId: string): Promise<Recurrence> {
  return getRecurrence(deps, accountId, recurrenceId);
}

/** Its cycles, newest first: GET /v1/recurrences/{id}/cycles's page. */
export function dashboardRecurrenceCycles(deps: Pick<Deps, 'db'>, accountId: string, recurrenceId: string, filters: { limit: number; cursor?: string | undefined }): Promise<api['schemas']['RecurrenceCycleList']> {
  return listCyclePage(deps, accountId, recurrenceId, filters);
}

/** "Cancelar recorrência": exactly POST /v1/recurrences/{id}/cancel for the signed-in user's account. */
export async function cancelDashboardRecurrence(deps: Deps, principal: DashboardPrincipal, recurrenceId: string): Promise<Recurrence> {
  const { accountId } = actingAccount(principal);
  return recurrenceJson(deps, await inWords(() => cancelRecurrenceForMerchant(deps, accountId, recurrenceId)));
}

/** The consent's QR code (its copy-and-paste code as a PNG), while a QR journey waits for the payer. */
export async function dashboardRecurrenceQrCode(deps: Pick<Deps, 'db'>, accountId: string, recurrenceId: string, sizePx: number): Promise<QrImage> {
  const recurrence = await getRecurrence(deps, accountId, recurrenceId);
  const payload = recurrence.consent.pixPayload;
  if (payload === undefined) {
    throw new RecurrenceQrCodeAbsent('Esta recorrência não tem QR code para autorizar: ela não espera a leitura de um QR code pelo pagador.');
  }
  return qrImage(payload, { format: 'png', sizePx });
}

/** The overview's figures: active recurrences and the cycles due from today to 7 days ahead (São Paulo). */
export async function recurrenceOverview(deps: Pick<Deps, 'db' | 'clock'>, accountId: string): Promise<dashboard['schemas']['DashboardRecurrenceSummary']> {
  const today = saoPauloDay(deps.clock.now());
  const figures = await recurrenceFigures(deps.db, accountId, today, addCalendarDays(today, DUE_WINDOW_DAYS));
  return { activeCount: figures.activeCount, dueNext7Days: { count: figures.dueCount, amountCents: figures.dueCents } };
}

// ---- Sandbox --------------------------------------------------------------------------------------------

function requireSandbox(deps: Pick<Deps, 'config' | 'sandbox'>): void {
  if (!sandboxAvailable(deps)) throw new SandboxUnavailable();
}

export type RecurrenceSandboxAction = 'approve' | 'reject' | 'expire' | 'payer-cancel';
export type CycleSandboxAction = 'pay' | 'refuse' | 'payer-cancel';

/**
 * The payer's answer to one of the account's own recurrences (another account's: 404 as unknown), as the
 * back office's sandbox gives it: approve, reject (AP13), expire, or cancel an approved one (SLDB).
 */
export async function sandboxRecurrence(deps: Deps, accountId: string, recurrenceId: string, action: RecurrenceSandboxAction): Promise<Recurrence> {
  requireSandbox(deps);
  await getRecurrence(deps, accountId, recurrenceId);
  const row = await inWords(() => {
    switch (action) {
      case 'approve':
        return sandboxAnswerConsent(deps, recurrenceId, { outcome: 'approve' });
      case 'reject':
        return sandboxAnswerConsent(deps, recurrenceId, { outcome: 'reject', code: 'AP13' });
      case 'expire':
        return sandboxAnswerConsent(deps, recurrenceId, { outcome: 'expire' });
      case 'payer-cancel':
        return sandboxCancelAsPayer(deps, recurrenceId, { code: 'SLDB', by: 'payer' });
    }
  });
  return recurrenceJson(deps, row);
}

/** The payer's bank on one of the account's own cycles (another account's: 404 as unknown). */
export async function sandboxRecurrenceCycle(deps: Deps, accountId: string, transactionId: string, action: CycleSandboxAction, code: string | undefined): Promise<Cycle> {
  requireSandbox(deps);
  const found = await findCycle(deps.db, transactionId);
  if (!found || found.charge.account_id !== accountId) throw new RecurrenceCycleNotFound();
  const record = await inWords(() => {
    switch (action) {
      case 'pay':
        return sandboxDebitCycle(deps, transactionId, { outcome: 'pay' });
      case 'refuse':
        return sandboxDebitCycle(deps, transactionId, { outcome: 'refuse', code: code ?? 'AM02' });
      case 'payer-cancel':
        return sandboxCancelCycleAsPayer(deps, transactionId, code);
    }
  });
  return toCycleJson(record);
}

/** "Executar agora": what the Pix Automático jobs do every minute (on every account: the sandbox holds no real money). */
export function sandboxRecurrenceRun(deps: Deps): Promise<{ scheduled: number; read: number }> {
  requireSandbox(deps);
  return sandboxRunRecurrences(deps);
}
