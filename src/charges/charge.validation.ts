import type { components } from '../../generated/api-types.ts';
import type { CustomerJson } from '../db/schema.ts';
import { InvalidCustomerDocument, InvalidCustomerDocumentType } from './charge.errors.ts';
import { normalizeDocumentType, validateDocument } from '../primitives/documents.ts';

type CustomerInput = components['schemas']['CreateChargeRequest']['customer'];

/**
 * What the schema cannot say about a customer: the document type after normalisation, the document's
 * length after stripping its formatting, and its check digits. Returns the normalised customer.
 */
export function normalizeCustomer(customer: CustomerInput): CustomerJson {
  const { number, type } = normalizeCustomerDocument(customer.document);
  return {
    name: customer.name.trim(),
    email: customer.email.trim().toLowerCase(),
    phone: customer.phone,
    document: { number, type },
  };
}

/** A customer's document as stored: its type normalised, its number stripped, its length and check digits checked. */
export function normalizeCustomerDocument(document: { number: string; type: string }): { number: string; type: 'cpf' | 'cnpj' } {
  const type = normalizeDocumentType(document.type);
  if (!type) throw new InvalidCustomerDocumentType(document.type);
  const checked = validateDocument(type, document.number);
  if (!checked.ok) throw new InvalidCustomerDocument(type, checked.reason, checked.length);
  return { number: checked.document, type };
}
