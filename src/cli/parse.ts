/** Reads a command's arguments and options with node:util parseArgs (strict: unknown options are errors). */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type { Command, CommandInput } from './command.ts';
import { usageError } from './errors.ts';

export interface ParsedCommandLine extends CommandInput {
  /** `--json`: print the server's answer as is. */
  json: boolean;
  /** `--help` / `-h`: show the command's help instead of running it. */
  help: boolean;
}

const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

function optionsConfig(command: Command): ParseArgsOptionsConfig {
  const config: ParseArgsOptionsConfig = { ...GLOBAL_OPTIONS };
  for (const option of command.options) config[option.name] = { type: 'string' };
  return config;
}

function parse(command: Command, args: readonly string[]) {
  try {
    return parseArgs({ args: [...args], options: optionsConfig(command), allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(`${command.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function parseCommandLine(command: Command, args: readonly string[]): ParsedCommandLine {
  const { values, positionals } = parse(command, args);
  const help = values['help'] === true;
  const options: Record<string, string> = {};
  for (const option of command.options) {
    const value = values[option.name];
    if (typeof value === 'string') options[option.name] = value;
  }
  const parsed = { positionals, options, json: values['json'] === true, help };
  if (help) return parsed;
  const missingArg = command.args[positionals.length];
  if (missingArg !== undefined) throw usageError(`${command.name}: missing <${missingArg}>.`);
  const extra = positionals[command.args.length];
  if (extra !== undefined) throw usageError(`${command.name}: unexpected argument '${extra}'.`);
  const missingOption = command.options.find((option) => option.required && options[option.name] === undefined);
  if (missingOption) throw usageError(`${command.name}: missing --${missingOption.name} ${missingOption.value}.`);
  return parsed;
}
