import type { components } from '../../generated/admin-types.ts';
import type { ApiKeyRow } from '../db/schema.ts';

type ApiKey = components['schemas']['ApiKey'];

export function toAdminApiKey(row: ApiKeyRow): ApiKey {
  return {
    keyId: row.id,
    publicPrefix: row.public_prefix,
    label: row.label,
    createdAt: row.created_at.getTime(),
    revokedAt: row.revoked_at ? row.revoked_at.getTime() : null,
  };
}
