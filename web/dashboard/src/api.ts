import type { paths } from '../../../generated/dashboard-types.ts';
import type { components } from '../../../generated/dashboard-types.ts';
import { apiClient } from '../../shared/api.ts';

export type Schemas = components['schemas'];
export type Session = Schemas['Session'];

/** The session the page runs with; set at sign-in, cleared when the server says it is gone. */
export const sessionState: { csrfToken: string | undefined; onLost: () => void } = {
  csrfToken: undefined,
  onLost: () => undefined,
};

export const api = apiClient<paths>(window.location.origin, {
  csrfToken: () => sessionState.csrfToken,
  onSessionLost: () => sessionState.onLost(),
});
