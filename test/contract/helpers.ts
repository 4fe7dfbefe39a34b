/**
 * Shared by the contract tests: the generated documents and the contract text.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATED_DIR, relativeToRoot } from '../../scripts/lib/paths.ts';
import { readContract } from '../../scripts/lib/contract.ts';
import type { Json } from '../../scripts/lib/json.ts';

export function generatedPath(name: string): string {
  return path.join(GENERATED_DIR, name);
}

export function hasGenerated(name: string): boolean {
  return existsSync(generatedPath(name));
}

/** A generated JSON document; a clear error when `npm run generate` has not been run. */
export function loadGenerated(name: string): Json {
  const file = generatedPath(name);
  if (!existsSync(file)) throw new Error(`${relativeToRoot(file)} not found: run \`npm run generate\` first`);
  return JSON.parse(readFileSync(file, 'utf8')) as Json;
}

let contractText: string | undefined;

/** The contract markdown (../shared/spec/pix-gateway-api.md, or $PIXGATE_CONTRACT). */
export function contract(): string {
  contractText ??= readContract();
  return contractText;
}
