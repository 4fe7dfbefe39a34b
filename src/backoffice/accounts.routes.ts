import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { allAccounts, changeAccountSettings, createAccount, requireAccount } from '../accounts/account.service.ts';
import { balanceReport } from '../balance/balance.service.ts';
import { eventsOf } from '../events/event.service.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { toAccountUpdate, toAdminAccount, toAdminEvent } from './accounts.mapper.ts';

const DEFAULT_EVENT_LIMIT = 50;

/** Back office, openapi/admin/paths/accounts: accounts, their settings, balance and events. */
export function accountRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/admin/v1/accounts', async (req, res) => {
    res.status(201).json(toAdminAccount(await createAccount(deps, req.body, new Date(deps.clock.now()))));
  });

  api.get('/admin/v1/accounts', async (_req, res) => {
    const accounts = await allAccounts(deps);
    res.json({ accounts: accounts.map(toAdminAccount), count: accounts.length });
  });

  api.get('/admin/v1/accounts/{accountId}', async (req, res) => {
    res.json(toAdminAccount(await requireAccount(deps, req.params.accountId)));
  });

  api.patch('/admin/v1/accounts/{accountId}', async (req, res) => {
    res.json(toAdminAccount(await changeAccountSettings(deps, req.params.accountId, toAccountUpdate(req.body))));
  });

  api.get('/admin/v1/accounts/{accountId}/balance', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    const { balance, violations } = await balanceReport(deps, account.id);
    res.json({
      availableCents: balance.availableCents,
      heldCents: balance.heldCents,
      reservedCents: balance.reservedCents,
      withdrawableCents: balance.withdrawableCents,
      ledgerConsistent: violations.length === 0,
      violations,
    });
  });

  api.get('/admin/v1/accounts/{accountId}/events', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    const limit = req.query.limit === undefined ? DEFAULT_EVENT_LIMIT : Number(req.query.limit);
    const events = await eventsOf(deps, account.id, limit);
    res.json({ events: events.map(toAdminEvent), count: events.length });
  });
}
