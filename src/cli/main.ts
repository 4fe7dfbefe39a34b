/**
 * PixGate back-office CLI: `node src/cli/main.ts <command> [options]` (`npm run admin -- <command>`).
 * A small dependency-free client of the admin API (openapi/admin/admin.yaml) over fetch. `help` lists the
 * commands; the pieces live in src/cli/.
 */
import { findCommand, SECTIONS } from './commands/index.ts';
import type { Command } from './command.ts';
import { adminBaseUrl, operatorToken, type Env } from './config.ts';
import { CliError, EXIT_FAILURE, usageError } from './errors.ts';
import { commandHelp, generalHelp } from './help.ts';
import { send } from './http.ts';
import { parseCommandLine } from './parse.ts';

/** How long to wait for the server before calling it unreachable. */
const REQUEST_TIMEOUT_MS = 30_000;
const HELP_WORDS = new Set(['help', '--help', '-h']);

/** Everything the CLI touches outside itself, so tests can run it in-process. */
export interface CliIo {
  env: Env;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  fetch: typeof fetch;
}

function helpFor(name: string | undefined): string {
  if (name === undefined) return generalHelp(SECTIONS);
  const command = findCommand(name);
  if (!command) throw usageError(`Unknown command '${name}'.`);
  return commandHelp(command);
}

async function execute(command: Command, args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(command, args);
  if (parsed.help) {
    io.stdout(commandHelp(command));
    return 0;
  }
  const request = command.request(parsed);
  const connection = {
    baseUrl: adminBaseUrl(io.env),
    token: operatorToken(io.env, io.cwd),
    fetch: io.fetch,
    timeoutMs: REQUEST_TIMEOUT_MS,
  };
  const answer = await send(connection, request);
  io.stdout(parsed.json ? JSON.stringify(answer, null, 2) : command.render(answer));
  if (command.notice) io.stderr(command.notice);
  return 0;
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(generalHelp(SECTIONS));
    return EXIT_FAILURE;
  }
  if (HELP_WORDS.has(name)) {
    io.stdout(helpFor(rest[0]));
    return 0;
  }
  const command = findCommand(name);
  if (!command) throw usageError(`Unknown command '${name}'.`);
  return execute(command, rest, io);
}

/** Runs one command line; returns the exit status. Only CliErrors are expected; anything else is a bug. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.stderr(error.message);
    return error.exitCode;
  }
}

function processIo(): CliIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    fetch: globalThis.fetch,
  };
}

if (import.meta.main) {
  process.exitCode = await runCli(process.argv.slice(2), processIo());
}
