/** The help texts, built from the command table so they never drift from what the parser accepts. */
import type { Command } from './command.ts';
import type { CommandSection } from './commands/index.ts';

/** Beyond this many optional options the general help shows `[options]` (`help <command>` lists them). */
const MAX_OPTIONS_IN_SUMMARY = 4;

export function usageLine(command: Command, compact = false): string {
  const args = command.args.map((name) => `<${name}>`);
  const optional = command.options.filter((option) => !option.required);
  const shown = compact && optional.length > MAX_OPTIONS_IN_SUMMARY ? command.options.filter((option) => option.required) : command.options;
  const options = shown.map((option) =>
    option.required ? `--${option.name} ${option.value}` : `[--${option.name} ${option.value}]`,
  );
  const more = shown === command.options ? [] : ['[options]'];
  return [command.name, ...args, ...options, ...more].join(' ');
}

export function commandHelp(command: Command): string {
  const width = Math.max(0, ...command.options.map((option) => option.name.length + 2));
  const options = command.options.map((option) => `  ${`--${option.name}`.padEnd(width)}  ${option.help}`);
  return [
    `Usage: node src/cli/main.ts ${usageLine(command)} [--json]`,
    '',
    command.summary,
    ...(options.length > 0 ? ['', 'Options:', ...options] : []),
    ...(command.notice ? ['', command.notice] : []),
  ].join('\n');
}

export function generalHelp(sections: readonly CommandSection[]): string {
  return [
    "PixGate back-office CLI: a client of the admin API (/admin/v1), for PixGate's service team.",
    '',
    'Usage: node src/cli/main.ts <command> [arguments] [options]   (or: npm run admin -- <command> ...)',
    '',
    'Commands:',
    '',
    ...sections.flatMap((section) => [
      `${section.title}`,
      ...section.commands.flatMap((command) => [`  ${usageLine(command, true)}`, `      ${command.summary}`]),
      '',
    ]),
    'Help',
    '  help [command]',
    '      This text, or the details of one command.',
    '',
    "Every command accepts --json (print the server's JSON answer as is) and --help; 'help <command>' lists",
    'its options. Amounts are integer cents (1000 = R$ 10,00); times are printed in UTC.',
    '',
    'Environment:',
    '  PIXGATE_ADMIN_URL  admin API address (default http://127.0.0.1:$ADMIN_PORT, ADMIN_PORT defaulting to 3001)',
    '  ADMIN_TOKEN        operator token; when unset, read from <PIXGATE_DATA_DIR>/../admin-token',
    '                     (.data/admin-token under the current directory by default)',
    '',
    'Exit status: 0 done; 1 usage error or an error answered by the server; 2 server unreachable.',
  ].join('\n');
}
