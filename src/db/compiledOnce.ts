import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A hot query compiled by Kysely once per process instead of on every call (building and compiling the
 * query tree was about 6 % of a read's CPU in the benchmark's profile).
 *
 * The first call builds and compiles the query with its arguments and keeps the SQL text when the compiled
 * parameters are exactly those arguments, in order; later calls send that text with their own arguments
 * (on Postgres it is also one named prepared statement). When they are not (a constant bound as a
 * parameter, a list, an argument used twice, arguments in another order), the query is simply compiled on every call, so a mistaken use
 * is slower, never wrong. Only for builders with no branches: the SQL text must not depend on the values.
 */
export function compiledOnce<A extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  // undefined: not compiled yet; null: its parameters are not its arguments (compiled every time).
  let reusable: CompiledQuery<R> | null | undefined;
  return async (db, ...args) => {
    if (reusable) return (await db.executeQuery<R>({ ...reusable, parameters: args })).rows;
    const compiled = build(db, ...args).compile();
    // Arguments equal to each other cannot show which parameter is which: decided on a later call.
    if (reusable === undefined && distinct(args)) reusable = sameValues(compiled.parameters, args) ? compiled : null;
    return (await db.executeQuery<R>(compiled)).rows;
  };
}

function distinct(args: readonly unknown[]): boolean {
  return new Set(args).size === args.length;
}

function sameValues(parameters: readonly unknown[], args: readonly unknown[]): boolean {
  return parameters.length === args.length && parameters.every((value, index) => value === args[index]);
}
