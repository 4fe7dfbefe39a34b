/**
 * Batches of charges with a due date (API Pix `lotecobv`; POST /v1/due-charge-batches): a billing run asked
 * of the provider in one call. Each item is checked as POST /v1/due-charges checks it (a broken rule refuses
 * that item alone, with that operation's message), an item whose externalRef names a live charge is that
 * charge, the others go to the provider; `processDueChargeBatches` (a job) reads the batch there and stores
 * each charge the provider created, or why it was refused.
 */
import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import { findAccount } from '../accounts/account.repository.ts';
import type { Deps } from '../platform/deps.ts';
import { DomainError } from '../platform/domainError.ts';
import { newId } from '../primitives/ids.ts';
import { ProviderFailure, ProviderTimeout, type RegisterDueChargeInput } from '../provider/port.ts';
import { tryConsume, type Window } from '../ratelimit/rateLimit.repository.ts';
import { ProviderUnavailable } from './charge.errors.ts';
import { liveDueCharge, prepareDueCharge, storeDueCharge, type PreparedDueCharge } from './dueCharge.service.ts';
import { BatchRateLimited, DueChargeBatchNotFound } from './dueCharge.errors.ts';
import {
  batchItems,
  closeBatchIfDone,
  findBatch,
  insertBatch,
  processingBatches,
  reserveProviderRef,
  settleItem,
  type DueChargeBatchRow,
  type NewBatchItem,
} from './dueChargeBatch.repository.ts';

type CreateBatchRequest = components['schemas']['CreateDueChargeBatchRequest'];
type BatchJson = components['schemas']['DueChargeBatch'];

const HOUR_MS = 3_600_000;
/** Batches an account may ask for in a fixed UTC hour. */
export const BATCHES_PER_HOUR = 20;
const BATCHES_PER_RUN = 20;

/** The merchant's text of a refusal (the route gives it: the HTTP layer owns the texts). */
export type DescribeRefusal = (error: DomainError) => string;

/** An item's message when its externalRef repeats an earlier item's. */
export const repeatedRefMessage = (first: number) => `externalRef repetido no lote (item ${first}).`;
/** An item the provider refused, with its words. */
export const providerRefusedMessage = (problem: string) => `Recusada pelo provedor: ${problem}`;

async function toBatchJson(deps: Pick<Deps, 'db'>, batch: DueChargeBatchRow): Promise<BatchJson> {
  const items = await batchItems(deps.db, batch.id);
  return {
    batchId: batch.id,
    description: batch.description,
    status: batch.status,
    createdAt: batch.created_at.getTime(),
    count: items.length,
    items: items.map((item) => {
      const externalRef = (item.request as { input?: { externalRef?: string } } | null)?.input?.externalRef;
      return {
        index: item.item_index,
        status: item.status,
        ...(item.transaction_id !== null ? { transactionId: item.transaction_id } : {}),
        ...(externalRef !== undefined ? { externalRef } : {}),
        ...(item.error !== null ? { error: item.error } : {}),
      };
    }),
  };
}

/**
 * POST /v1/due-charge-batches: every item checked; the ones to create asked of the provider in one batch
 * (a number from the batch sequence); the batch stored with every item's state. The provider unreachable:
 * 502, nothing stored.
 */
export async function createDueChargeBatch(deps: Deps, auth: AccountContext, body: CreateBatchRequest, describe: DescribeRefusal): Promise<BatchJson> {
  const nowMs = deps.clock.now();
  const window: Window = { bucket: 'due_charge_batch:hour', windowMs: HOUR_MS, limit: BATCHES_PER_HOUR };
  if (!(await tryConsume(deps.db, auth.accountId, window, nowMs))) throw new BatchRateLimited();

  const items: (NewBatchItem & { externalRef?: string | undefined })[] = [];
  const toCreate: PreparedDueCharge[] = [];
  const firstWithRef = new Map<string, number>();
  for (const [index, request] of body.dueCharges.entries()) {
    const externalRef = request.externalRef;
    const earlier = externalRef === undefined ? undefined : firstWithRef.get(externalRef);
    if (earlier !== undefined) {
      items.push({ status: 'refused', transactionId: null, error: repeatedRefMessage(earlier), request: { input: { externalRef } } });
      continue;
    }
    if (externalRef !== undefined) firstWithRef.set(externalRef, index);
    try {
      const live = externalRef === undefined ? undefined : await liveDueCharge(deps, auth.accountId, externalRef, nowMs);
      if (live) {
        items.push({ status: 'created', transactionId: live.charge.id, error: null, request: { input: { externalRef } } });
        continue;
      }
      const prepared = prepareDueCharge(auth, request, nowMs);
      toCreate.push(prepared);
      items.push({ status: 'processing', transactionId: prepared.input.transactionId, error: null, request: prepared });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      items.push({ status: 'refused', transactionId: null, error: describe(error), request: externalRef === undefined ? null : { input: { externalRef } } });
    }
  }

  const id = newId('dcb');
  const providerRef = await reserveProviderRef(deps.db);
  if (toCreate.length > 0) {
    await deps.provider
      .registerDueChargeBatch({ batchRef: providerRef, description: body.description, items: toCreate.map((prepared) => prepared.input) })
      .catch((error: unknown) => {
        if (error instanceof ProviderFailure || error instanceof ProviderTimeout) throw new ProviderUnavailable();
        throw error;
      });
  }
  // A refused item keeps only its externalRef (to show it); a processing one its whole prepared request.
  await insertBatch(deps.db, { id, accountId: auth.accountId, providerRef, description: body.description.trim(), at: new Date(nowMs), items });
  const stored = await findBatch(deps.db, auth.accountId, id);
  if (!stored) throw new Error(`batch ${id} stored but not readable`);
  return toBatchJson(deps, stored);
}

export async function getDueChargeBatch(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<BatchJson> {
  const batch = await findBatch(deps.db, accountId, id);
  if (!batch) throw new DueChargeBatchNotFound();
  return toBatchJson(deps, batch);
}

/**
 * Job: reads each batch still processing at the provider and stores every charge it created (its externalRef
 * claimed; one another request stored first is that item's charge, and the provider's duplicate is removed),
 * or the provider's reason for an item it refused. Answers how many items it settled.
 */
export async function processDueChargeBatches(deps: Deps): Promise<number> {
  let settled = 0;
  for (const batch of await processingBatches(deps.db, BATCHES_PER_RUN)) {
    const pending = (await batchItems(deps.db, batch.id)).filter((item) => item.status === 'processing' && item.request !== null);
    const prepared = pending.map((item) => ({ index: item.item_index, prepared: item.request as PreparedDueCharge }));
    const account = await findAccount(deps.db, batch.account_id);
    if (!account) continue;
    const states = await deps.provider.readDueChargeBatch({ batchRef: batch.provider_ref, items: prepared.map((item) => item.prepared.input as RegisterDueChargeInput) });
    for (const { index, prepared: item } of prepared) {
      const state = states.get(item.input.transactionId);
      if (!state || state.state === 'processing') continue;
      if (state.state === 'refused') {
        await settleItem(deps.db, batch.id, index, { status: 'refused', transactionId: null, error: providerRefusedMessage(state.problem) });
      } else {
        const claim = await storeDueCharge(deps, account, item, state.charge);
        let transactionId = item.input.transactionId;
        if (!claim.claimed) {
          transactionId = claim.existing.id;
          void deps.provider.removeCharge({ transactionId: item.input.transactionId, providerRef: state.charge.providerRef, kind: 'due' }).catch(() => undefined);
        }
        await settleItem(deps.db, batch.id, index, { status: 'created', transactionId, error: null });
      }
      settled += 1;
    }
    await closeBatchIfDone(deps.db, batch.id, new Date(deps.clock.now()));
  }
  return settled;
}
