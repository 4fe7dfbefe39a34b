import type { components, paths } from '../../../generated/admin-types.ts';
import { operationRoles, type OperationId } from '../../../generated/admin-roles.ts';
import { sessionApi } from '../../shared/api.ts';

export type Schemas = components['schemas'];
export type OperatorSession = Schemas['OperatorSession'];

/** The console's client, its query hooks and the session it runs with (web/shared/api.ts). */
export const { api, $api, sessionState } = sessionApi<paths>();

/** Whether the operator's roles allow `operation` (its `x-roles` in openapi/admin): the console offers only those actions. */
export function may(session: OperatorSession, operation: OperationId): boolean {
  const allowed: readonly string[] = operationRoles[operation];
  return session.operator.roles.some((role) => allowed.includes(role));
}

export const ROLE_LABEL = { support: 'Suporte', compliance: 'Compliance', finance: 'Financeiro', admin: 'Administrador' } as const;
