import type { components, paths } from '../../../generated/admin-types.ts';
import { operationRoles, type OperationId } from '../../../generated/admin-roles.ts';
import { apiClient } from '../../shared/api.ts';

export type Schemas = components['schemas'];
export type OperatorSession = Schemas['OperatorSession'];

/** The console session the page runs with; set at sign-in, cleared when the server says it is gone. */
export const sessionState: { csrfToken: string | undefined; onLost: () => void } = {
  csrfToken: undefined,
  onLost: () => undefined,
};

export const api = apiClient<paths>(window.location.origin, {
  csrfToken: () => sessionState.csrfToken,
  onSessionLost: () => sessionState.onLost(),
});

/** Whether the operator's roles allow `operation` (its `x-roles` in openapi/admin): the console offers only those actions. */
export function may(session: OperatorSession, operation: OperationId): boolean {
  const allowed: readonly string[] = operationRoles[operation];
  return session.operator.roles.some((role) => allowed.includes(role));
}

export const ROLE_LABEL = { support: 'Suporte', compliance: 'Compliance', finance: 'Financeiro', admin: 'Administrador' } as const;
