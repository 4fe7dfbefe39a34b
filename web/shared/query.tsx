import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * The pages' data layer: TanStack Query over the openapi-fetch clients (web/shared/api.ts `sessionApi`).
 * A query that the server answered with an error is not retried (the answer will not change by asking again);
 * one with no answer is retried once. Data is fresh for 5 s, so moving between pages does not refetch at once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => failures < 1 && error instanceof TypeError,
      },
      mutations: { retry: false },
    },
  });
}

export function QueryProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
