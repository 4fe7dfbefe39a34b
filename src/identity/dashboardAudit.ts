import type { Request, Response } from 'express';
import type { DashboardUserRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { recordUserAction } from './securityAudit.ts';

/**
 * The audit entries of merchants' dashboard actions on security and money settings (issue 22), written
 * for a successful answer (2xx), just before it is sent, from the request and the answer's ids only: never a key, a webhook
 * secret, a code or a password. (Invitations are recorded by the service, `user.invited`, alike for a fresh
 * e-mail and for a registered one, whose invitation is a placeholder: migration 017.) The operations themselves are unchanged; the dashboard's access layer
 * hands each of them here. Not in the action's database transaction (like the back office's worker runs):
 * a crash between the two loses the entry, never the action.
 */
type Picked = Record<string, unknown>;

interface AuditedOperation {
  action: string;
  targetType: string;
  /** The target's id: from the path or the answer. */
  target: (req: Request, answer: Picked) => unknown;
  /** What is worth keeping (no secret). */
  after: (req: Request, answer: Picked) => Picked;
}

const body = (req: Request): Picked => (typeof req.body === 'object' && req.body !== null ? (req.body as Picked) : {});
const pathId = (pattern: RegExp) => (req: Request) => pattern.exec(req.path)?.[1] ?? null;
const pick = (source: Picked, keys: string[]): Picked => Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));

const AUDITED: Record<string, AuditedOperation> = {
  createDashboardApiKey: { action: 'api_key.created', targetType: 'api_key', target: (_req, answer) => answer['keyId'], after: (_req, answer) => pick(answer, ['keyId', 'publicPrefix', 'label']) },
  revokeDashboardApiKey: { action: 'api_key.revoked', targetType: 'api_key', target: pathId(/\/api-keys\/([^/]+)\/revoke$/), after: () => ({ revoked: true }) },
  createDashboardWebhook: { action: 'webhook.created', targetType: 'webhook_endpoint', target: (_req, answer) => answer['endpointId'], after: (_req, answer) => pick(answer, ['url', 'events', 'enabled', 'secretPrefix']) },
  updateDashboardWebhook: { action: 'webhook.updated', targetType: 'webhook_endpoint', target: pathId(/\/webhooks\/([^/]+)$/), after: (_req, answer) => pick(answer, ['url', 'events', 'enabled', 'description']) },
  deleteDashboardWebhook: { action: 'webhook.deleted', targetType: 'webhook_endpoint', target: pathId(/\/webhooks\/([^/]+)$/), after: () => ({ deleted: true }) },
  rotateDashboardWebhookSecret: { action: 'webhook.secret_rotated', targetType: 'webhook_endpoint', target: pathId(/\/webhooks\/([^/]+)\/rotate-secret$/), after: (_req, answer) => pick(answer, ['secretPrefix']) },
  updateUser: { action: 'user.role_changed', targetType: 'user', target: pathId(/\/users\/([^/]+)$/), after: (req) => pick(body(req), ['role']) },
  removeUser: { action: 'user.removed', targetType: 'user', target: pathId(/\/users\/([^/]+)$/), after: () => ({ removed: true }) },
  registerDashboardRecipient: { action: 'recipient.registered', targetType: 'recipient', target: (_req, answer) => answer['recipientId'], after: (_req, answer) => pick(answer, ['legalName', 'documentType', 'pixKeyType', 'status']) },
  createDashboardWithdrawal: {
    action: 'withdrawal.requested',
    targetType: 'transaction',
    target: (_req, answer) => answer['transactionId'],
    after: (req, answer) => ({ ...pick(body(req), ['amountCents', 'pixKeyType', 'externalRef']), ...pick(answer, ['status']) }),
  },
  defendDashboardInfraction: {
    action: 'infraction.defended',
    targetType: 'infraction',
    target: pathId(/\/infractions\/([^/]+)\/defence$/),
    after: (req, answer) => ({ ...pick(body(req), ['analysis']), ...pick(answer, ['status']) }),
  },
  createDashboardRefund: {
    action: 'refund.requested',
    targetType: 'transaction',
    target: pathId(/\/transactions\/([^/]+)\/refunds$/),
    after: (req, answer) => ({ ...pick(body(req), ['amountCents', 'externalRef']), ...pick(answer, ['refundId', 'status']) }),
  },
};

/** Names every action this module writes (docs and tests). */
export const DASHBOARD_AUDITED_ACTIONS: readonly string[] = Object.values(AUDITED).map((operation) => operation.action);

/** Watches one dashboard request: when its operation is audited and it succeeds, writes the entry. */
export function auditDashboardAction(deps: Pick<Deps, 'db' | 'clock' | 'logger'>, req: Request, res: Response, operationId: string, user: DashboardUserRow): void {
  const audited = AUDITED[operationId];
  if (!audited) return;
  const json = res.json.bind(res);
  // The entry is written before the answer leaves, so whoever reads the log after the answer finds it.
  res.json = (value: unknown) => {
    if (res.statusCode < 200 || res.statusCode >= 300) return json(value);
    const answer: Picked = typeof value === 'object' && value !== null ? (value as Picked) : {};
    const target = audited.target(req, answer);
    recordUserAction(deps, user, { ip: req.ip, requestId: req.get('x-request-id') ?? undefined }, {
      action: audited.action,
      target: { type: audited.targetType, id: typeof target === 'string' ? target : null },
      accountId: user.account_id,
      after: audited.after(req, answer),
    })
      .catch((error: unknown) => deps.logger.error('audit entry not written', { action: audited.action, error: error instanceof Error ? error.message : String(error) }))
      .finally(() => json(value));
    return res;
  };
}
