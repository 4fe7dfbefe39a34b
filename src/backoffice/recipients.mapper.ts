import type { components } from '../../generated/admin-types.ts';
import type { RecipientRow } from '../db/schema.ts';

type AdminRecipient = components['schemas']['AdminRecipient'];

const ms = (date: Date | null) => (date ? date.getTime() : null);

export function toAdminRecipient(row: RecipientRow): AdminRecipient {
  return {
    recipientId: row.id,
    legalName: row.legal_name,
    document: row.document,
    documentType: row.document_type,
    pixKey: row.pix_key,
    pixKeyType: row.pix_key_type,
    label: row.label,
    status: row.status,
    reviewNote: row.review_note,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
    approvedAt: ms(row.approved_at),
    reviewedAt: ms(row.reviewed_at),
  };
}
