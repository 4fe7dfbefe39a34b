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
  const type = normalizeDocumentType(customer.document.type);
  if (!type) throw new InvalidCustomerDocumentType(customer.document.type);
  const document = validateDocument(type, customer.document.number);
  if (!document.ok) throw new InvalidCustomerDocument(type, document.reason, document.length);
  return {
    name: customer.name.trim(),
    email: customer.email.trim().toLowerCase(),
    phone: customer.phone,
    document: { number: document.document, type },
  };
}
