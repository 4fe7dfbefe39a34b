/**
 * Translations between PixGate's values and the provider's (API Pix / Efí): ids derived from PixGate's
 * own, amounts as strings of reais, the payer and beneficiary as parties, and the reason codes of refused
 * sends as PixGate's `refusedCode`. Pure functions: tested on their own (test/provider/efiMapping.test.ts).
 */
import { createHash } from 'node:crypto';
import type { components } from '../../../generated/upstream-types.ts';
import type { DiscountTerms, InterestTerms } from '../../charges/dueAmount.ts';
import type { ActivationJourney, ConsentStatus, DueDebtorJson, EndedBy, PartyJson, RecurrencePeriodicity, RecurrenceRetryPolicy, RecurrenceStatus } from '../../db/schema.ts';
import type { BeneficiaryFacts, ChargeKind, DueChargeTerms } from '../port.ts';

type CobVValor = components['schemas']['CobVValor'];
type DevedorCobV = components['schemas']['DevedorCobV'];

type Pagador = components['schemas']['Pagador'];
type Favorecido = NonNullable<components['schemas']['PixEnviado']['favorecido']>;

const AMOUNT = /^(\d{1,10})\.(\d{2})$/;

/** 1234 -> "12.34". */
export function toValor(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`not an amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "12.34" -> 1234; undefined for anything else (the provider's amounts are strings with two decimals). */
export function fromValor(valor: unknown): number | undefined {
  if (typeof valor !== 'string') return undefined;
  const match = AMOUNT.exec(valor.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number(match[2]);
}

/**
 * The txid of a charge (26-35 alphanumerics). With an externalRef it is derived from the account and the
 * externalRef, so every retry of the same request names the same charge at the provider; `generation`
 * moves on when that txid is taken by a charge that cannot be reused (paid, removed, expired, another
 * amount), so the sequence converges to the same txid on every retry too. Without an externalRef, the
 * transaction id is the txid.
 */
export function txidFor(
  input: { transactionId: string; accountId: string; externalRef?: string | undefined },
  generation = 0,
  kind: ChargeKind = 'immediate',
): string {
  if (input.externalRef === undefined) return `pg${input.transactionId.replace(/^tx_/, '')}`;
  // A txid is unique per receiver across cob and cobv: a charge with a due date's externalRef (its own scope)
  // hashes apart from an immediate charge's.
  const scope = kind === 'due' ? 'due\n' : '';
  const digest = createHash('sha256').update(`${scope}${input.accountId}\n${input.externalRef}\n${generation}`).digest('hex');
  return `pgr${digest.slice(0, 32)}`;
}

const JUROS: Readonly<Record<InterestTerms['mode'], number>> = {
  fixed_per_calendar_day: 1,
  percent_per_calendar_day: 2,
  percent_per_month_calendar_days: 3,
  percent_per_year_calendar_days: 4,
  fixed_per_business_day: 5,
  percent_per_business_day: 6,
  percent_per_month_business_days: 7,
  percent_per_year_business_days: 8,
};
const DESCONTO: Readonly<Record<DiscountTerms['mode'], number>> = {
  fixed_until_dates: 1,
  percent_until_dates: 2,
  fixed_per_calendar_day_early: 3,
  fixed_per_business_day_early: 4,
  percent_per_calendar_day_early: 5,
  percent_per_business_day_early: 6,
};

/** An amount in cents or a percentage in basis points as API Pix's `valorPerc` (two decimals either way). */
function valorPerc(term: { amountCents?: number | undefined; basisPoints?: number | undefined }): string {
  return toValor(term.amountCents ?? term.basisPoints ?? 0);
}

/** API Pix's `CobVValor` of a charge with a due date: the original amount and the modalities of its terms. */
export function cobvValorOf(amountCents: number, terms: DueChargeTerms): CobVValor {
  const { fine, interest, discount, rebate } = terms;
  return {
    original: toValor(amountCents),
    ...(fine ? { multa: { modalidade: fine.mode === 'fixed' ? 1 : 2, valorPerc: valorPerc(fine) } } : {}),
    ...(interest ? { juros: { modalidade: JUROS[interest.mode], valorPerc: valorPerc(interest) } } : {}),
    ...(rebate ? { abatimento: { modalidade: rebate.mode === 'fixed' ? 1 : 2, valorPerc: valorPerc(rebate) } } : {}),
    ...(discount
      ? {
          desconto:
            'dates' in discount
              ? {
                  modalidade: DESCONTO[discount.mode],
                  descontoDataFixa: discount.dates.map((item) => ({ data: item.date, valorPerc: valorPerc(item) })),
                }
              : { modalidade: DESCONTO[discount.mode], valorPerc: valorPerc(discount) },
        }
      : {}),
  };
}

/** API Pix's `devedor` of a cobv: name, document, and the e-mail and address when known. */
export function cobvDevedorOf(debtor: DueDebtorJson): DevedorCobV {
  const document = debtor.document.type === 'cpf' ? { cpf: debtor.document.number } : { cnpj: debtor.document.number };
  const address = debtor.address;
  return {
    nome: debtor.name.slice(0, 200),
    ...document,
    ...(debtor.email !== undefined ? { email: debtor.email } : {}),
    ...(address ? { logradouro: address.street.slice(0, 200), cidade: address.city.slice(0, 200), uf: address.state, cep: address.postalCode } : {}),
  } as DevedorCobV;
}

/** `tx_<24 hex>` -> the send's `idEnvio` (`tx<24 hex>`), the same on every retry of the withdrawal. */
export function idEnvioFor(transactionId: string): string {
  return transactionId.replace('_', '');
}

/** The withdrawal of an `idEnvio`, when it is one of PixGate's. */
export function transactionIdOfEnvio(idEnvio: string): string | undefined {
  return /^tx[0-9a-f]{24}$/.test(idEnvio) ? `tx_${idEnvio.slice(2)}` : undefined;
}

/** `rf_<24 hex>` -> the refund's `id` at the provider (`rf<24 hex>`). */
export function devolucaoIdFor(refundId: string): string {
  return refundId.replace('_', '');
}

/** The refund of a devolução id, when it is one of PixGate's (a MED refund has the provider's own id). */
export function refundIdOfDevolucao(id: string): string | undefined {
  return /^rf[0-9a-f]{24}$/.test(id) ? `rf_${id.slice(2)}` : undefined;
}

function digits(value: string | undefined): string {
  return (value ?? '').replace(/\D/g, '');
}

/** The CPF (11 digits) or CNPJ (14 characters, alphanumeric since API Pix 2.9.0) among a party's fields. */
function documentOf(who: { cpf?: string | undefined; cnpj?: string | undefined }): { document: string; documentType: 'cpf' | 'cnpj' } | undefined {
  const cpf = digits(who.cpf);
  if (cpf.length === 11) return { document: cpf, documentType: 'cpf' };
  const cnpj = (who.cnpj ?? '').toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (cnpj.length === 14) return { document: cnpj, documentType: 'cnpj' };
  return undefined;
}

const ISPB = /^[0-9A-Z]{8}$/;

/** The payer of a received Pix (Efí's `gnExtras.pagador`); undefined when incomplete (the payer is optional). */
export function partyOf(who: Pagador | undefined): PartyJson | undefined {
  if (!who) return undefined;
  const document = documentOf(who);
  if (!who.nome || document === undefined || !who.codigoBanco) return undefined;
  return { name: who.nome, ...document, bankAccount: { ispb: who.codigoBanco, branch: who.agencia ?? '', account: who.conta ?? '' } };
}

/**
 * Who a send reached, from whatever the read carries: `favorecido.identificacao` (name, document; some
 * reads put the bank's `codigoBanco` there too) and/or `favorecido.contaBanco` (name, document, ISPB,
 * branch, account). Every part that is present is taken; none is required.
 */
export function beneficiaryOf(favorecido: Favorecido | undefined): BeneficiaryFacts {
  const identificacao = favorecido?.identificacao ?? {};
  const conta = favorecido?.contaBanco ?? {};
  const document = documentOf(identificacao) ?? documentOf(conta);
  const name = identificacao.nome || conta.nome || undefined;
  const ispb = [conta.codigoBanco, identificacao.codigoBanco].find((code) => typeof code === 'string' && ISPB.test(code));
  const bankAccount = {
    ...(ispb !== undefined ? { ispb } : {}),
    ...(conta.agencia ? { branch: digits(conta.agencia) || conta.agencia } : {}),
    ...(conta.conta ? { account: conta.conta } : {}),
  };
  return {
    ...(name !== undefined ? { name } : {}),
    ...(document ?? {}),
    ...(Object.keys(bankAccount).length > 0 ? { bankAccount } : {}),
  };
}

/** What PixGate says of a refused send, by the provider's reason (ISO 20022 codes, Efí error names). */
const REFUSALS: Record<string, { code: string; reason: string }> = {
  AC03: { code: 'BENEFICIARY_ACCOUNT_INVALID', reason: 'A conta do recebedor é inválida ou não existe.' },
  AC14: { code: 'BENEFICIARY_ACCOUNT_INVALID', reason: 'O tipo de conta do recebedor é inválido.' },
  AC06: { code: 'BENEFICIARY_ACCOUNT_BLOCKED', reason: 'A conta do recebedor está bloqueada.' },
  AC07: { code: 'BENEFICIARY_ACCOUNT_CLOSED', reason: 'A conta do recebedor está encerrada.' },
  AG03: { code: 'BENEFICIARY_ACCOUNT_INVALID', reason: 'A conta do recebedor não aceita este tipo de transação.' },
  AM02: { code: 'PROVIDER_REJECTED', reason: 'O valor excede o limite da conta do recebedor.' },
  BE01: { code: 'KEY_OWNER_MISMATCH', reason: 'O CPF/CNPJ não corresponde ao titular da conta do recebedor.' },
  CH11: { code: 'KEY_OWNER_MISMATCH', reason: 'O CPF/CNPJ do recebedor está incorreto.' },
  DS04: { code: 'PROVIDER_REJECTED', reason: 'Recusado pela instituição do recebedor.' },
  FRAD: { code: 'PROVIDER_REJECTED', reason: 'Recusado por suspeita de fraude.' },
  RR04: { code: 'PROVIDER_REJECTED', reason: 'Recusado por restrição regulatória.' },
  chave_invalida: { code: 'INVALID_PIX_KEY', reason: 'A chave Pix foi recusada pelo provedor.' },
  chave_nao_pertence_ao_documento: { code: 'KEY_OWNER_MISMATCH', reason: 'A chave Pix não pertence ao CPF/CNPJ esperado.' },
  documento_bloqueado: { code: 'PROVIDER_REJECTED', reason: 'O documento do recebedor está bloqueado no provedor.' },
  pagamento_negado: { code: 'PROVIDER_REJECTED', reason: 'Pagamento negado pela análise de risco do provedor.' },
};

/** PixGate's own refusal codes (RefusedCode.yaml): a provider (the fake's sandbox) may report them as they are. */
const PIXGATE_CODES = new Set([
  'INSUFFICIENT_BALANCE',
  'INVALID_PIX_KEY',
  'PIX_KEY_NOT_FOUND',
  'KEY_OWNER_MISMATCH',
  'BENEFICIARY_ACCOUNT_CLOSED',
  'BENEFICIARY_ACCOUNT_BLOCKED',
  'BENEFICIARY_ACCOUNT_INVALID',
  'PROVIDER_REJECTED',
]);

/**
 * The `refusedCode` and `refusedReason` of a refused send, from the provider's reason code (and its text,
 * used when PixGate has none of its own for that code); an unknown code is a generic refusal naming it.
 */
export function refusalOf(code: string | undefined, motivo?: string): { code: string; reason: string } {
  if (code === undefined) return { code: 'PROVIDER_REJECTED', reason: motivo || 'Recusado pelo provedor.' };
  const known = REFUSALS[code];
  if (known) return known;
  if (PIXGATE_CODES.has(code)) return { code, reason: motivo || 'Recusado pelo provedor.' };
  return { code: 'PROVIDER_REJECTED', reason: motivo ? `${motivo} (${code})`.slice(0, 300) : `Recusado pelo provedor (${code}).` };
}

// ---- Pix Automático ----------------------------------------------------------------------------------------

/** `weekly` -> `SEMANAL`, ... (API Pix `calendario.periodicidade`). */
export const PERIODICIDADE: Readonly<Record<RecurrencePeriodicity, 'SEMANAL' | 'MENSAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL'>> = {
  weekly: 'SEMANAL',
  monthly: 'MENSAL',
  quarterly: 'TRIMESTRAL',
  half_yearly: 'SEMESTRAL',
  yearly: 'ANUAL',
};

/** `none` -> `NAO_PERMITE`, `three_in_seven_days` -> `PERMITE_3R_7D` (API Pix `politicaRetentativa`). */
export const POLITICA_RETENTATIVA: Readonly<Record<RecurrenceRetryPolicy, 'NAO_PERMITE' | 'PERMITE_3R_7D'>> = {
  none: 'NAO_PERMITE',
  three_in_seven_days: 'PERMITE_3R_7D',
};

/** API Pix `rec.status` -> PixGate's. */
export const REC_STATUS: Readonly<Record<string, RecurrenceStatus>> = {
  CRIADA: 'created',
  APROVADA: 'approved',
  REJEITADA: 'rejected',
  EXPIRADA: 'expired',
  CANCELADA: 'cancelled',
};

/** API Pix `solicrec.status` -> the consent's: the request on its way to the payer is pending. */
export const SOLICREC_STATUS: Readonly<Record<string, ConsentStatus>> = {
  CRIADA: 'pending',
  ENVIADA: 'pending',
  RECEBIDA: 'pending',
  ACEITA: 'accepted',
  REJEITADA: 'rejected',
  EXPIRADA: 'expired',
  CANCELADA: 'cancelled',
};

/** API Pix `ativacao.tipoJornada` -> how the payer authorised it (`AGUARDANDO_DEFINICAO`: not yet). */
export const TIPO_JORNADA: Readonly<Record<string, ActivationJourney>> = {
  JORNADA_1: 'request',
  JORNADA_2: 'qrcode',
  JORNADA_3: 'qrcode_with_payment',
  JORNADA_4: 'due_charge_qrcode',
};

/** API Pix `encerramento.cancelamento.solicitante` -> who ended it. */
export const SOLICITANTE: Readonly<Record<string, EndedBy>> = {
  USUARIO_RECEBEDOR: 'merchant',
  USUARIO_PAGADOR: 'payer',
  PSP_PAGADOR: 'payer_bank',
  PSP_RECEBEDOR: 'provider',
};

/** API Pix `cobr.status` -> the cycle's charge's state. */
export const COBR_STATUS: Readonly<Record<string, 'created' | 'active' | 'completed' | 'expired' | 'rejected' | 'cancelled'>> = {
  CRIADA: 'created',
  ATIVA: 'active',
  CONCLUIDA: 'completed',
  EXPIRADA: 'expired',
  REJEITADA: 'rejected',
  CANCELADA: 'cancelled',
};

/** API Pix `tentativas[].status` -> the attempt's (SOLICITADA and AGENDADA are both still to be debited). */
export const TENTATIVA_STATUS: Readonly<Record<string, 'scheduled' | 'paid' | 'refused' | 'cancelled' | 'expired'>> = {
  SOLICITADA: 'scheduled',
  AGENDADA: 'scheduled',
  PAGA: 'paid',
  REJEITADA: 'refused',
  CANCELADA: 'cancelled',
  EXPIRADA: 'expired',
};

const COBR_TXID = /^[a-zA-Z0-9]{26,35}$/;

/**
 * The txid of a cycle's charge (`cobr`, 26-35 alphanumerics): `pga` + the transaction id's own characters
 * (`tx_<24 hex>` -> 27 characters), its own prefix so it never meets a cob's or a cobv's txid (a txid is unique
 * per receiver across them); any other transaction id is hashed into one. The same on every retry.
 */
export function cobrTxidFor(transactionId: string): string {
  const own = `pga${transactionId.replace(/^tx_/, '')}`;
  if (COBR_TXID.test(own)) return own;
  return `pga${createHash('sha256').update(`cobr\n${transactionId}`).digest('hex').slice(0, 32)}`;
}
