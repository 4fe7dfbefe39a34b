import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { apiKeysOf, issueApiKey, requireAccount, revokeKey } from '../accounts/account.service.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { auditing } from './audit.ts';
import type { ApiKeyRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { toAdminApiKey } from './apiKeys.mapper.ts';

/** Back office, openapi/admin/paths/api-keys: an account's API keys (the secret is shown once, at creation). */
export function apiKeyRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/admin/v1/accounts/{accountId}/api-keys', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    const issued = await issueApiKey(
      deps,
      account,
      req.body?.label ?? null,
      new Date(deps.clock.now()),
      null,
      auditing(deps, req, res, (row: ApiKeyRow) => ({ action: 'apiKey.create', target: { type: 'apiKey', id: row.id }, accountId: account.id, after: toAdminApiKey(row) })),
    );
    res.status(201).json({ ...toAdminApiKey(issued.row), apiKey: issued.secret });
  });

  api.get('/admin/v1/accounts/{accountId}/api-keys', async (req, res) => {
    const keys = await apiKeysOf(deps, req.params.accountId);
    res.json({ apiKeys: keys.map(toAdminApiKey), count: keys.length });
  });

  api.post('/admin/v1/accounts/{accountId}/api-keys/{keyId}/revoke', async (req, res) => {
    const previous = (await apiKeysOf(deps, req.params.accountId)).find((row) => row.id === req.params.keyId);
    const before = previous ? toAdminApiKey(previous) : undefined;
    const row = await revokeKey(
      deps,
      req.params.accountId,
      req.params.keyId,
      auditing(deps, req, res, (revoked: ApiKeyRow) => ({ action: 'apiKey.revoke', target: { type: 'apiKey', id: revoked.id }, accountId: req.params.accountId, before, after: toAdminApiKey(revoked) })),
    );
    res.json(toAdminApiKey(row));
  });
}
