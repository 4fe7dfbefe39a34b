/** The help texts, built from the command table so they never drift from what the parser accepts. */
import type { Command } from './command.ts';

export function usageLine(command: Command): string {
  const args = command.args.map((name) => `<${name}>`);
  const options = command.options.map((option) =>
    option.required ? `--${option.name} ${option.value}` : `[--${option.name} ${option.value}]`,
  );
  return [command.name, ...args, ...options].join(' ');
}

export function commandHelp(command: Command): string {
  const width = Math.max(0, ...command.options.map((option) => option.name.length + 2));
  const options = command.options.map((option) => `  ${`--${option.name}`.padEnd(width)}  ${option.help}`);
  return [
    `Usage: node src/admin/cli.ts ${usageLine(command)} [--json]`,
    '',
    command.summary,
    ...(options.length > 0 ? ['', 'Options:', ...options] : []),
    ...(command.notice ? ['', command.notice] : []),
  ].join('\n');
}

export function generalHelp(commands: readonly Command[]): string {
  return [
    "PixGate back-office CLI: a client of the admin API (/admin/v1), for PixGate's service team.",
    '',
    'Usage: node src/admin/cli.ts <command> [arguments] [options]   (or: npm run admin -- <command> ...)',
    '',
    'Commands:',
    ...commands.flatMap((command) => [`  ${usageLine(command)}`, `      ${command.summary}`]),
    '  help [command]',
    '      This text, or the details of one command.',
    '',
    'Every command accepts --json (print the server\'s JSON answer as is) and --help.',
    '',
    'Environment:',
    '  PIXGATE_ADMIN_URL  admin API address (default http://127.0.0.1:$PORT, PORT defaulting to 3000)',
    '  ADMIN_TOKEN        operator token; when unset, read from <PIXGATE_DATA_DIR>/../admin-token',
    '                     (.data/admin-token under the current directory by default)',
    '',
    'Exit status: 0 done; 1 usage error or an error answered by the server; 2 server unreachable.',
  ].join('\n');
}
