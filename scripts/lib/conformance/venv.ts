/**
 * The project-local Python virtual environment (`.venv`, git-ignored) holding the pinned Schemathesis.
 *
 * Idempotent: the SHA-256 of requirements-conformance.txt is stamped into the venv after a successful
 * install; while the stamp matches and `st` is there, nothing is run (a few milliseconds). When the file
 * changes, the same venv is brought in line with it (`pip install -r`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fromRoot, relativeToRoot } from '../paths.ts';

export const VENV_DIR = fromRoot('.venv');
export const REQUIREMENTS_FILE = fromRoot('requirements-conformance.txt');
const STAMP_FILE = fromRoot('.venv', '.pixgate-conformance-requirements.sha256');
const BIN_DIR = process.platform === 'win32' ? 'Scripts' : 'bin';
const EXE = process.platform === 'win32' ? '.exe' : '';

export const VENV_PYTHON = fromRoot('.venv', BIN_DIR, `python${EXE}`);
export const SCHEMATHESIS_BIN = fromRoot('.venv', BIN_DIR, `st${EXE}`);

export interface VenvResult {
  /** Path of the `st` executable. */
  st: string;
  /** True when this call created the venv or (re)installed packages. */
  installed: boolean;
  /** Time this call spent, in milliseconds. */
  ms: number;
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function requirementsHash(): string {
  return createHash('sha256').update(readFileSync(REQUIREMENTS_FILE)).digest('hex');
}

/** The Python used to create the venv: $PYTHON, else `python3` (Schemathesis 4.32 needs >= 3.11). */
function basePython(): string {
  return process.env['PYTHON'] || (process.platform === 'win32' ? 'python' : 'python3');
}

export async function ensureSchemathesis(): Promise<VenvResult> {
  const started = Date.now();
  const wanted = requirementsHash();
  const stamped = existsSync(STAMP_FILE) ? readFileSync(STAMP_FILE, 'utf8').trim() : '';
  if (stamped === wanted && existsSync(SCHEMATHESIS_BIN) && existsSync(VENV_PYTHON)) {
    return { st: SCHEMATHESIS_BIN, installed: false, ms: Date.now() - started };
  }
  if (!existsSync(VENV_PYTHON)) {
    const python = basePython();
    console.log(`conformance: creating the virtualenv ${relativeToRoot(VENV_DIR)} with ${python}`);
    const check = await run(python, [
      '-c',
      'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Schemathesis 4 needs Python >= 3.11, found " + sys.version.split()[0])',
    ]).catch(() => 127);
    if (check !== 0) throw new Error(`${python} is missing or older than 3.11 (set PYTHON=/path/to/python3.11+)`);
    if ((await run(python, ['-m', 'venv', VENV_DIR])) !== 0) throw new Error(`${python} -m venv ${VENV_DIR} failed`);
  }
  console.log(`conformance: installing ${relativeToRoot(REQUIREMENTS_FILE)} into ${relativeToRoot(VENV_DIR)}`);
  const code = await run(VENV_PYTHON, ['-m', 'pip', 'install', '--quiet', '-r', REQUIREMENTS_FILE]);
  if (code !== 0 || !existsSync(SCHEMATHESIS_BIN)) throw new Error(`pip install -r ${relativeToRoot(REQUIREMENTS_FILE)} failed (exit ${code})`);
  writeFileSync(STAMP_FILE, `${wanted}\n`);
  return { st: SCHEMATHESIS_BIN, installed: true, ms: Date.now() - started };
}
