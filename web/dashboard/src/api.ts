import type { components, paths } from '../../../generated/dashboard-types.ts';
import { sessionApi } from '../../shared/api.ts';

export type Schemas = components['schemas'];
export type Session = Schemas['Session'];

/** The dashboard's client, its query hooks and the session it runs with (web/shared/api.ts). */
export const { api, $api, sessionState } = sessionApi<paths>();
