/**
 * Runs the toolchain's command-line tools as child processes with the same Node binary as the caller
 * (Node 24, pinned through npm), so nothing depends on which `node` happens to be first on PATH.
 */
import { spawn } from 'node:child_process';
import { binScript, ROOT } from './paths.ts';

/** The command-line tools, by the JavaScript file their package's `bin` entry points to. */
export const TOOLS = {
  redocly: binScript('@redocly/cli', 'bin/cli.js'),
  prism: binScript('@stoplight/prism-cli', 'dist/index.js'),
  tsc: binScript('typescript', 'bin/tsc'),
  eslint: binScript('eslint', 'bin/eslint.js'),
} as const;

export type Tool = keyof typeof TOOLS;

/** Environment for every tool: no telemetry, no update checks, no colours in captured output. */
export function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...extra,
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Print the tool's output as it arrives instead of capturing it. */
  inherit?: boolean;
  cwd?: string;
  env?: Record<string, string>;
}

/** Runs a Node script (a tool's JavaScript entry or one of ours) and resolves when it exits. */
export function runNodeScript(script: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd ?? ROOT,
      env: toolEnv(options.env),
      stdio: options.inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stdout, stderr }));
  });
}

export function runTool(tool: Tool, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return runNodeScript(TOOLS[tool], args, options);
}

/** Runs a tool and throws with its output when it fails. */
export async function runToolOrThrow(tool: Tool, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const result = await runTool(tool, args, options);
  if (result.code !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim();
    throw new Error(`${tool} ${args.join(' ')} failed (exit ${result.code}):\n${output}`);
  }
  return result;
}
