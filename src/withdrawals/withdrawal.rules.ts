import type { components } from '../../generated/api-types.ts';
import type { AccountRow, PixKeyType, RecipientRow } from '../db/schema.ts';
import { badRequest, forbidden, notFound, unprocessable } from '../http/errors.ts';
import { messages } from '../http/messages.ts';
import { stripDocument } from '../pix/documents.ts';
import { normalizeRecipientId } from '../pix/ids.ts';
import { normalizePixKey, normalizePixKeyType } from '../pix/keys.ts';

type CreateWithdrawalRequest = components['schemas']['CreateWithdrawalRequest'];

/** Who a withdrawal pays, once the contract's mode rules have been checked. */
export interface Destination {
  pixKey: string;
  pixKeyType: PixKeyType;
  recipient: RecipientRow | undefined;
  beneficiary: { name: string; document: string; documentType: 'cpf' | 'cnpj' };
}

const HOLDER_KEY_TYPES: ReadonlySet<PixKeyType> = new Set(['cpf', 'cnpj']);

/** The recipientId of the body, normalised; the schema already refused anything but 24 hex characters. */
export function requestedRecipientId(body: CreateWithdrawalRequest): string | undefined {
  if (body.recipientId === undefined) return undefined;
  const id = normalizeRecipientId(body.recipientId);
  if (!id) throw badRequest(messages.recipientIdInvalid);
  return id;
}

/**
 * The contract's rules of who may be paid, in this order: key type (400), third-party keys need a
 * recipient (400), key types allowed for the account (403), then Mode 1 (holder's CPF/CNPJ, 403) or
 * Mode 2 (an active recipient of this account: 404 unknown, 422 deactivated; CPF/CNPJ keys of the
 * recipient's document type (400) and equal to its document (403)).
 */
export function resolveDestination(
  account: AccountRow,
  body: CreateWithdrawalRequest,
  recipient: RecipientRow | undefined,
  recipientId: string | undefined,
): Destination {
  const keyType = normalizePixKeyType(body.pixKeyType);
  if (!keyType) throw badRequest(messages.pixKeyType(body.pixKeyType));
  if (recipientId === undefined && !HOLDER_KEY_TYPES.has(keyType)) {
    throw badRequest(messages.thirdPartyKeyNeedsRecipient);
  }
  if (!account.withdrawal_key_types.includes(keyType)) throw forbidden(messages.pixKeyTypeNotAllowed(keyType));

  if (recipientId === undefined) {
    const key = stripDocument(body.pixKey);
    if (keyType === 'cpf' && key !== account.responsible_cpf) throw forbidden(messages.cpfKeyNotHolder);
    if (keyType === 'cnpj' && key !== account.company_cnpj) throw forbidden(messages.cnpjKeyNotHolder);
    return {
      pixKey: key,
      pixKeyType: keyType,
      recipient: undefined,
      beneficiary: {
        name: account.legal_name,
        document: key,
        documentType: keyType === 'cpf' ? 'cpf' : 'cnpj',
      },
    };
  }

  // Only an approved recipient is "authorised"; one still in review or rejected is as unknown.
  if (!recipient || recipient.status === 'pending_review' || recipient.status === 'rejected') {
    throw notFound(messages.recipientNotFound);
  }
  if (recipient.status === 'deactivated') throw unprocessable(messages.recipientDeactivated);

  let pixKey: string;
  if (HOLDER_KEY_TYPES.has(keyType)) {
    if (keyType !== recipient.document_type) throw badRequest(messages.recipientKeyTypeMismatch);
    pixKey = stripDocument(body.pixKey);
    if (pixKey !== recipient.document) throw forbidden(messages.recipientKeyMismatch);
  } else {
    const normalized = normalizePixKey(keyType, body.pixKey);
    if (!normalized.ok) throw badRequest(messages.pixKeyInvalid(keyType));
    pixKey = normalized.key;
  }
  return {
    pixKey,
    pixKeyType: keyType,
    recipient,
    beneficiary: { name: recipient.legal_name, document: recipient.document, documentType: recipient.document_type },
  };
}

export function checkMaximum(account: AccountRow, amountCents: number): void {
  if (amountCents > account.withdrawal_max_cents) throw badRequest(messages.withdrawAboveMaximum(account.withdrawal_max_cents));
}

/** Manual approval applies to the whole account, or to withdrawals above its approval threshold. */
export function needsApproval(account: AccountRow, amountCents: number): boolean {
  if (account.withdrawal_approval_mode === 'manual') return true;
  const threshold = account.withdrawal_approval_threshold_cents;
  return threshold !== null && amountCents > threshold;
}

