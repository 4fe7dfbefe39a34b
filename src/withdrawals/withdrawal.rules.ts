import type { components } from '../../generated/api-types.ts';
import type { AccountRow, PixKeyType, RecipientRow } from '../db/schema.ts';
import { InvalidPixKey, InvalidPixKeyType, RecipientDeactivated, RecipientNotFound } from '../recipients/recipient.errors.ts';
import { stripDocument } from '../primitives/documents.ts';
import { normalizeRecipientId } from '../primitives/ids.ts';
import { normalizePixKey, normalizePixKeyType } from '../primitives/keys.ts';
import {
  InvalidRecipientId,
  KeyNotHolderDocument,
  PixKeyTypeNotAllowed,
  RecipientKeyMismatch,
  RecipientKeyTypeMismatch,
  ThirdPartyKeyNeedsRecipient,
  WithdrawalAboveMaximum,
} from './withdrawal.errors.ts';

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
  if (!id) throw new InvalidRecipientId();
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
  if (!keyType) throw new InvalidPixKeyType(body.pixKeyType);
  if (recipientId === undefined && !HOLDER_KEY_TYPES.has(keyType)) {
    throw new ThirdPartyKeyNeedsRecipient();
  }
  if (!account.withdrawal_key_types.includes(keyType)) throw new PixKeyTypeNotAllowed(keyType);

  if (recipientId === undefined) {
    const key = stripDocument(body.pixKey);
    if (keyType === 'cpf' && key !== account.responsible_cpf) throw new KeyNotHolderDocument('cpf');
    if (keyType === 'cnpj' && key !== account.company_cnpj) throw new KeyNotHolderDocument('cnpj');
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
    throw new RecipientNotFound();
  }
  if (recipient.status === 'deactivated') throw new RecipientDeactivated();

  let pixKey: string;
  if (HOLDER_KEY_TYPES.has(keyType)) {
    if (keyType !== recipient.document_type) throw new RecipientKeyTypeMismatch();
    pixKey = stripDocument(body.pixKey);
    if (pixKey !== recipient.document) throw new RecipientKeyMismatch();
  } else {
    const normalized = normalizePixKey(keyType, body.pixKey);
    if (!normalized.ok) throw new InvalidPixKey(keyType);
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
  if (amountCents > account.withdrawal_max_cents) throw new WithdrawalAboveMaximum(account.withdrawal_max_cents);
}

/** Manual approval applies to the whole account, or to withdrawals above its approval threshold. */
export function needsApproval(account: AccountRow, amountCents: number): boolean {
  if (account.withdrawal_approval_mode === 'manual') return true;
  const threshold = account.withdrawal_approval_threshold_cents;
  return threshold !== null && amountCents > threshold;
}

