import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { toDashboardUser } from './dashboard.mapper.ts';
import { changeTeamTwoFactor, changeUserRole, inviteUser, removeUser, usersOf } from './user.service.ts';

/** Dashboard, openapi/dashboard/paths/users: the people of the account and their roles. */
export function userRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/dashboard/api/v1/users', async (_req, res) => {
    const users = await usersOf(deps, principalOf(res).account.id);
    res.json({ users: users.map((user) => toDashboardUser(user, deps.clock.now())), count: users.length });
  });

  api.post('/dashboard/api/v1/users', async (req, res) => {
    const principal = principalOf(res);
    res.status(201).json(toDashboardUser(await inviteUser(deps, principal.user, req.body, principal.account.legal_name, { ip: req.ip, requestId: req.get('x-request-id') ?? undefined }), deps.clock.now()));
  });

  api.patch('/dashboard/api/v1/users/{userId}', async (req, res) => {
    res.json(toDashboardUser(await changeUserRole(deps, principalOf(res).user, req.params.userId, req.body.role), deps.clock.now()));
  });

  api.delete('/dashboard/api/v1/users/{userId}', async (req, res) => {
    await removeUser(deps, principalOf(res).user, req.params.userId);
    res.json({ userId: req.params.userId, removed: true });
  });

  api.put('/dashboard/api/v1/team-two-factor', async (req, res) => {
    res.json(await changeTeamTwoFactor(deps, principalOf(res), req.body.required, { ip: req.ip, requestId: req.get('x-request-id') ?? undefined }));
  });
}
