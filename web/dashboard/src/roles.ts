import { operationRoles, type OperationId } from '../../../generated/dashboard-roles.ts';
import type { Session } from './api.ts';

/** Whether the signed-in user's role may call `operation` (its `x-roles` in openapi/dashboard): the page offers only those actions. */
export function may(session: Session, operation: OperationId): boolean {
  const allowed: readonly string[] = operationRoles[operation];
  return allowed.includes(session.user.role);
}
