import type { components } from '../../generated/api-types.ts';
import type { CustomerJson } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { messages } from '../http/messages.ts';
import { normalizeDocumentType, validateDocument } from '../pix/documents.ts';

type CustomerInput = components['schemas']['CreateChargeRequest']['customer'];

/**
 * What the schema cannot say about a customer: the document type after normalisation, the document's
 * length after stripping its formatting, and its check digits. Returns the normalised customer.
 */
export function normalizeCustomer(customer: CustomerInput): CustomerJson {
  const type = normalizeDocumentType(customer.document.type);
  if (!type) throw badRequest(messages.customerDocumentType(customer.document.type));
  const document = validateDocument(type, customer.document.number);
  if (!document.ok) {
    if (document.reason === 'characters') throw badRequest(messages.customerDocumentNumber);
    if (document.reason === 'length') {
      throw badRequest(
        type === 'cpf' ? messages.customerCpfLength(document.length) : messages.customerCnpjLength(document.length),
      );
    }
    throw badRequest(type === 'cpf' ? messages.customerCpfInvalid : messages.customerCnpjInvalid);
  }
  return {
    name: customer.name.trim(),
    email: customer.email.trim().toLowerCase(),
    phone: customer.phone,
    document: { number: document.document, type },
  };
}
