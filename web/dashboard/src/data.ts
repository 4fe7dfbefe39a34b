import { useQueryClient } from '@tanstack/react-query';
import type { paths } from '../../../generated/dashboard-types.ts';
import { problemOf, type ApiProblem } from '../../shared/api.ts';

export type Outcome<T> = { ok: true; data: T } | { ok: false; problem: ApiProblem };

/**
 * Runs a mutation (`mutateAsync`): the server's refusal becomes a problem for the form, shown where it
 * belongs. No answer at all (a TypeError from fetch) is thrown on, so ActionForm says "Sem resposta do
 * servidor" rather than a message the server never sent.
 */
export async function attempt<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    if (error instanceof TypeError) throw error;
    return { ok: false, problem: problemOf(error) };
  }
}

/** The same for a button outside a form: no answer becomes the "Sem resposta" problem too. */
export async function attemptAction<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return await attempt(run);
  } catch {
    return { ok: false, problem: { error: 'Sem resposta do servidor. Verifique a conexão e tente de novo.' } };
  }
}

/** Marks every cached read of these paths (any parameters) stale, so what a mutation changed is read again. */
export function useInvalidate(): (...paths: (keyof paths)[]) => Promise<void> {
  const client = useQueryClient();
  return async (...toInvalidate) => {
    await Promise.all(toInvalidate.map((path) => client.invalidateQueries({ queryKey: ['get', path] })));
  };
}
