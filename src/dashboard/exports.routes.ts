import { once } from 'node:events';
import type { Response, Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import type { TransactionType } from '../db/schema.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { replicaDeps } from '../platform/readRouting.ts';
import { exportStatement, exportTransactions, type CsvSink } from './exports.service.ts';

/**
 * A sink writing to the answer: the CSV headers go with the first chunk (an error before it is still
 * answered as JSON with its status), each chunk waits for the socket to drain, and a reader that left ends
 * the export.
 */
function csvSink(res: Response, filename: string): CsvSink {
  let started = false;
  return async (chunk) => {
    if (res.destroyed) return false;
    if (!started) {
      started = true;
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      res.setHeader('Cache-Control', 'no-store');
    }
    if (!res.write(chunk)) {
      // Whichever comes first; the other listener is removed (a long export waits many times).
      const done = new AbortController();
      const waits = [once(res, 'drain', { signal: done.signal }), once(res, 'close', { signal: done.signal })].map((wait) => wait.catch(() => undefined));
      await Promise.race(waits);
      done.abort();
    }
    return !res.destroyed;
  };
}

/**
 * Runs an export. A failure before the first byte is answered by the error middleware (JSON, its status);
 * after it, the status line is gone, so the connection is cut: the download fails in the browser instead of
 * hanging or looking complete with rows missing (the middleware still logs the error).
 */
async function streamed(res: Response, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (res.headersSent) res.destroy();
    throw error;
  }
  res.end();
}

/** Dashboard, openapi/dashboard/paths/transactions/export-transactions and statement/export-statement. */
export function exportRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/dashboard/api/v1/transactions.csv', async (req, res) => {
    // Required by the spec (400 before this runs); an empty value would be refused as not a date.
    const { from = '', to = '', type, status } = req.query;
    await streamed(res, () =>
      exportTransactions(
        replicaDeps(deps),
        principalOf(res).account.id,
        { from, to, type: type as TransactionType | undefined, status },
        csvSink(res, `pixgate-transacoes-${from}-a-${to}.csv`),
      ),
    );
  });

  api.get('/dashboard/api/v1/statement.csv', async (req, res) => {
    const { from = '', to = '' } = req.query;
    await streamed(res, () => exportStatement(replicaDeps(deps), principalOf(res).account.id, { from, to }, csvSink(res, `pixgate-extrato-${from}-a-${to}.csv`)));
  });
}
