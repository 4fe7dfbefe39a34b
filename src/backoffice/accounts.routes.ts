import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { accountsPage, changeAccountSettings, createAccount, requireAccount } from '../accounts/account.service.ts';
import { balanceReport } from '../balance/balance.service.ts';
import { eventsOf } from '../events/event.service.ts';
import { callerOf, requireRoles } from '../http/backofficeAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { auditing } from './audit.ts';
import { requireText } from '../dashboard/text.ts';
import { accountsEmailVerified } from '../dashboard/user.service.ts';
import type { AccountRow, OperatorRole } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { toAccountUpdate, toAdminAccount, toAdminEvent } from './accounts.mapper.ts';

const DEFAULT_EVENT_LIMIT = 50;

/** KYC, blocking and the allowlist are compliance decisions; fees, ranges, limits and caps are finance's. */
const COMPLIANCE_FIELDS = new Set(['kycStatus', 'blocked', 'ipAllowlist']);

function rolesForChange(body: object): readonly OperatorRole[] {
  const fields = Object.keys(body);
  const compliance = fields.some((field) => COMPLIANCE_FIELDS.has(field));
  const finance = fields.some((field) => !COMPLIANCE_FIELDS.has(field));
  if (compliance && finance) return ['admin'];
  return compliance ? ['compliance', 'admin'] : ['finance', 'admin'];
}

/** Back office, openapi/admin/paths/accounts: accounts, their settings, balance and events. */
export function accountRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/admin/v1/accounts', async (req, res) => {
    // The legal name as it would be stored (normalised, visible characters), like the dashboard's sign-up.
    const legalName = requireText(req.body.legalName, 'legalName', 2);
    const row = await createAccount(
      deps,
      { ...req.body, legalName },
      new Date(deps.clock.now()),
      auditing(deps, req, res, (created: AccountRow) => ({ action: 'account.create', target: { type: 'account', id: created.id }, accountId: created.id, after: toAdminAccount(created) })),
    );
    res.status(201).json(toAdminAccount(row));
  });

  /** The accounts with whether their e-mail was confirmed (issue 38), read for the whole page at once. */
  const shown = async (rows: AccountRow[]) => {
    const verified = await accountsEmailVerified(deps, rows.map((row) => row.id));
    return rows.map((row) => toAdminAccount(row, verified.get(row.id)));
  };

  api.get('/admin/v1/accounts', async (req, res) => {
    const { accounts, nextCursor } = await accountsPage(deps, {
      kycStatus: req.query.kycStatus,
      limit: req.query.limit,
      cursor: req.query.cursor,
      emailVerified: req.query.emailVerified,
    });
    res.json({ accounts: await shown(accounts), count: accounts.length, nextCursor });
  });

  api.get('/admin/v1/accounts/{accountId}', async (req, res) => {
    const [account] = await shown([await requireAccount(deps, req.params.accountId)]);
    res.json(account);
  });

  api.patch('/admin/v1/accounts/{accountId}', async (req, res) => {
    requireRoles(callerOf(res), rolesForChange(req.body));
    const before = toAdminAccount(await requireAccount(deps, req.params.accountId));
    const row = await changeAccountSettings(
      deps,
      req.params.accountId,
      toAccountUpdate(req.body),
      auditing(deps, req, res, (changed: AccountRow) => ({ action: 'account.update', target: { type: 'account', id: changed.id }, accountId: changed.id, before, after: toAdminAccount(changed) })),
    );
    const [account] = await shown([row]);
    res.json(account);
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
