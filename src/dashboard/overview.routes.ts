import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import type { TransactionType } from '../db/schema.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { eventuallyConsistent } from '../platform/readRouting.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { listBalanceEntries } from '../balance/statement.service.ts';
import { listAccountTransactions } from '../transactions/transaction.service.ts';
import { toBalanceOverview, toDashboardAccount, toDeliveryAttempt } from './dashboard.mapper.ts';
import { overviewOf, transactionWithEvents } from './overview.service.ts';
import { parseTransactionSearch } from './transactionSearch.ts';
import { recurrenceOverview } from './recurrences.service.ts';

const DEFAULT_LIMIT = 50;

/** Dashboard, openapi/dashboard/paths/overview, transactions and statement. */
export function overviewRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/dashboard/api/v1/overview', async (_req, res) => {
    const { account } = principalOf(res);
    const [{ balance, latest }, recurrences] = await eventuallyConsistent(deps, (d) => Promise.all([overviewOf(d, account), recurrenceOverview(d, account.id)]));
    res.json({ account: toDashboardAccount(account), balance: toBalanceOverview(balance), latestTransactions: latest.map((row) => toApiTransaction(row, 'list')), recurrences });
  });

  api.get('/dashboard/api/v1/transactions', async (req, res) => {
    // Validated by the spec: GET /v1/transactions's parameters, checked and coerced before this runs.
    const query = req.query;
    const { rows, nextCursor } = await eventuallyConsistent(deps, (d) => listAccountTransactions(d, principalOf(res).account.id, {
      type: query.type as TransactionType | undefined,
      status: query.status,
      createdFrom: query.createdFrom === undefined ? undefined : Number(query.createdFrom),
      createdTo: query.createdTo === undefined ? undefined : Number(query.createdTo),
      externalRef: query.externalRef,
      search: query.q === undefined ? undefined : parseTransactionSearch(query.q),
      cursor: query.cursor,
      limit: query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit),
    }));
    res.json({ transactions: rows.map((row) => toApiTransaction(row, 'list')), count: rows.length, ...(nextCursor ? { nextCursor } : {}) });
  });

  api.get('/dashboard/api/v1/statement', async (req, res) => {
    const query = req.query;
    const { entries, nextCursor } = await eventuallyConsistent(deps, (d) => listBalanceEntries(d, principalOf(res).account.id, {
      createdFrom: query.createdFrom === undefined ? undefined : Number(query.createdFrom),
      createdTo: query.createdTo === undefined ? undefined : Number(query.createdTo),
      cursor: query.cursor,
      limit: query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit),
    }));
    res.json({ entries, count: entries.length, ...(nextCursor ? { nextCursor } : {}) });
  });

  api.get('/dashboard/api/v1/transactions/{transactionId}', async (req, res) => {
    const { transaction, refunds, events, attempts } = await transactionWithEvents(deps, principalOf(res).account.id, req.params.transactionId);
    res.json({
      transaction: toApiTransaction(transaction, 'list'),
      ...(refunds.length > 0 ? { refunds } : {}),
      events: events.map((event) => ({
        eventId: event.id,
        event: event.event,
        occurredAt: event.payload.occurredAt,
        attempts: attempts.filter((attempt) => attempt.event_id === event.id).map(toDeliveryAttempt),
      })),
    });
  });
}
