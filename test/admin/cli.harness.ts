/**
 * A tiny in-test HTTP server standing in for the back office: it records each request and answers the
 * canned JSON a test sets. `fakeAdmin()` registers its lifecycle hooks in the calling test file and
 * returns how to run the CLI against it, in-process or as a child process.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { runCli } from '../../src/cli/main.ts';

export const TOKEN = 'adm_cli_test_operator_token_5f0c2a';
const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** One command line and what it must send and show. */
export interface CommandCase {
  name: string;
  argv: string[];
  method: string;
  url: string;
  body?: unknown;
  answer: unknown;
  /** Something the human-readable output must show. */
  shows: string;
}

interface Reply {
  status: number;
  body: unknown;
  raw?: string;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

export function fakeAdmin() {
  let server: Server;
  let baseUrl = '';
  let recorded: Recorded[] = [];
  let reply: Reply = { status: 200, body: {} };

  beforeAll(async () => {
    server = createServer((req, res) => {
      void readBody(req).then((body) => {
        recorded.push({
          method: req.method ?? '',
          url: req.url ?? '',
          authorization: req.headers.authorization,
          contentType: req.headers['content-type'],
          body,
        });
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(reply.raw ?? JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    recorded = [];
    reply = { status: 200, body: {} };
  });

  return {
    baseUrl: () => baseUrl,
    recorded: () => recorded,
    /** The answer to every request from now on. */
    answer(status: number, body: unknown, raw?: string) {
      reply = raw === undefined ? { status, body } : { status, body, raw };
    },
    /** Runs the CLI in-process against the fake server (environment entries set to undefined are removed). */
    async run(argv: string[], env: Record<string, string | undefined> = {}, cwd = process.cwd()): Promise<Run> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(argv, {
        env: { PIXGATE_ADMIN_URL: baseUrl, ADMIN_TOKEN: TOKEN, ...env },
        cwd,
        stdout: (text) => out.push(text),
        stderr: (text) => err.push(text),
        fetch: globalThis.fetch,
      });
      return { code, stdout: out.join('\n'), stderr: err.join('\n') };
    },
    /** Runs the CLI as a child process of this Node. */
    spawn(argv: string[], env: Record<string, string>): Promise<Run> {
      return new Promise((resolve) => {
        execFile(process.execPath, [CLI, ...argv], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        });
      });
    },
  };
}
