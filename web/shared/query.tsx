import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * How old what a page shows may be (issue 38, defect 1: after the operator approved the KYC, the signed-in
 * merchant's pages kept saying it was not approved): every query of the page in view is read again this
 * often, and when the person comes back to the tab or the window. A hidden tab does not poll; it reads
 * again as soon as it is shown.
 */
export const REFETCH_INTERVAL_MS = 60_000;

/**
 * The pages' data layer: TanStack Query over the openapi-fetch clients (web/shared/api.ts `sessionApi`).
 * A query that the server answered with an error is not retried (the answer will not change by asking again);
 * one with no answer is retried once. Data is fresh for 5 s, so moving between pages does not refetch at once;
 * it is read again on focus and every minute (`REFETCH_INTERVAL_MS`), so nothing shown is older than that.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: true,
        refetchInterval: REFETCH_INTERVAL_MS,
        refetchIntervalInBackground: false,
        retry: (failures, error) => failures < 1 && error instanceof TypeError,
      },
      mutations: { retry: false },
    },
  });
}

export function QueryProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
