import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { generateApiKey, listApiKeys, revokeApiKey } from './apiKeys.service.ts';
import { toDashboardApiKey } from './dashboard.mapper.ts';

/** Dashboard, openapi/dashboard/paths/api-keys: Dispositivos / Chaves de API. */
export function apiKeyRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/dashboard/api/v1/api-keys', async (_req, res) => {
    const keys = await listApiKeys(deps, principalOf(res).account.id);
    res.json({ apiKeys: keys.map(toDashboardApiKey), count: keys.length });
  });

  api.post('/dashboard/api/v1/api-keys', async (req, res) => {
    const issued = await generateApiKey(deps, principalOf(res), req.body?.label);
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ ...toDashboardApiKey(issued.row), apiKey: issued.secret });
  });

  api.post('/dashboard/api/v1/api-keys/{keyId}/revoke', async (req, res) => {
    res.json(toDashboardApiKey(await revokeApiKey(deps, principalOf(res).account.id, req.params.keyId)));
  });
}
