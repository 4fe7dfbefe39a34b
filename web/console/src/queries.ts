import { useQueryClient } from '@tanstack/react-query';
import { problemOf, type ApiProblem } from '../../shared/api.ts';
import type { paths } from '../../../generated/admin-types.ts';

/** The console's GET paths: a query's key starts with `['get', path]`, so invalidating a path refreshes every query of it. */
export type GetPath = { [P in keyof paths]: paths[P] extends { get: unknown } ? P : never }[keyof paths];

/** After a change: the queries of these paths (any parameters) are refetched where they are shown. */
export function useInvalidate(): (...paths: GetPath[]) => Promise<void> {
  const client = useQueryClient();
  return async (...paths) => {
    await Promise.all(paths.map((path) => client.invalidateQueries({ queryKey: ['get', path] })));
  };
}

/**
 * A mutation's call as a result: its data, or the problem to show (the server's message, or "no answer").
 * `mutateAsync` of openapi-react-query throws the error body; this keeps the pages free of try/catch.
 */
export async function outcome<T>(run: () => Promise<T>): Promise<{ data: T; problem?: undefined } | { data?: undefined; problem: ApiProblem }> {
  try {
    return { data: await run() };
  } catch (error) {
    if (error instanceof TypeError) return { problem: { error: 'Sem resposta do servidor. Verifique a conexão e tente de novo.' } };
    return { problem: problemOf(error) };
  }
}
