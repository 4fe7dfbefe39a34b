/** What a CLI command is: its arguments and options, the request it builds, how it prints the answer. */
import type { AdminRequest } from './http.ts';

export interface OptionSpec {
  /** Long name without dashes: `legal-name` is given as `--legal-name <value>`. */
  name: string;
  /** Placeholder shown in the usage line, e.g. `<N|default>`. */
  value: string;
  required?: boolean;
  help: string;
}

export interface CommandInput {
  /** The positional arguments after the command name, exactly as many as `args` names. */
  positionals: readonly string[];
  /** The string options given, by long name; absent options are absent. */
  options: Readonly<Record<string, string | undefined>>;
}

export interface Command {
  name: string;
  summary: string;
  /** Names of the positional arguments, in order (all required). */
  args: readonly string[];
  options: readonly OptionSpec[];
  request(input: CommandInput): AdminRequest;
  /** The default, human-readable view of a successful answer. */
  render(body: unknown): string;
  /** Printed on stderr after a successful answer, whatever the output format. */
  notice?: string;
}

interface CommandSpec<T> extends Omit<Command, 'render'> {
  render(body: T): string;
}

/**
 * Ties a command's renderer to the answer type of its operation. The answer is trusted to match the
 * contract (the server validates its own responses against openapi/admin), hence the one cast here.
 */
export function defineCommand<T>(spec: CommandSpec<T>): Command {
  return { ...spec, render: (body: unknown) => spec.render(body as T) };
}

/** The value of a string option that the usage line marks required (checked before `request` runs). */
export function required(input: CommandInput, name: string): string {
  const value = input.options[name];
  if (value === undefined) throw new Error(`option --${name} was not checked as required`);
  return value;
}

/** The positional argument at `index` (the parser has checked that it exists). */
export function arg(input: CommandInput, index: number): string {
  const value = input.positionals[index];
  if (value === undefined) throw new Error(`positional argument ${index} was not checked`);
  return value;
}

/** The query string of a request: only the values given (`undefined` ones are left out), or none. */
export function queryOf(values: Readonly<Record<string, string | undefined>>): { query?: Record<string, string> } {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== undefined) query[name] = value;
  return Object.keys(query).length === 0 ? {} : { query };
}

/** The body of a request whose body is optional: none at all when there is nothing to send. */
export function optionalBody(body: object): { body?: object } {
  return Object.keys(body).length === 0 ? {} : { body };
}
