/**
 * File-tree helpers for generate and check:generated.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Files under a folder, as sorted forward-slash relative paths; empty when the folder does not exist. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (current: string, prefix: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(current, entry.name), relative);
      else if (entry.isFile()) found.push(relative);
    }
  };
  walk(dir, '');
  return found.sort();
}

export interface TreeDifference {
  changed: string[];
  missing: string[];
  extra: string[];
}

/**
 * Compares an expected tree (fresh output) with an actual one (committed): `missing` are expected files
 * the actual tree lacks, `extra` are actual files nobody generates.
 */
export function compareTrees(expectedDir: string, actualDir: string): TreeDifference {
  const expected = listFiles(expectedDir);
  const actual = new Set(listFiles(actualDir));
  const difference: TreeDifference = { changed: [], missing: [], extra: [] };
  for (const name of expected) {
    if (!actual.has(name)) difference.missing.push(name);
    else if (!readFileSync(path.join(expectedDir, name)).equals(readFileSync(path.join(actualDir, name)))) {
      difference.changed.push(name);
    }
    actual.delete(name);
  }
  difference.extra = [...actual].sort();
  return difference;
}

/** First differing line of two text files, clipped around the first differing character. */
export function firstDifference(expectedFile: string, actualFile: string): string {
  const expected = readFileSync(expectedFile, 'utf8').split('\n');
  const actual = readFileSync(actualFile, 'utf8').split('\n');
  const max = Math.max(expected.length, actual.length);
  for (let i = 0; i < max; i++) {
    const want = expected[i];
    const have = actual[i];
    if (want === have) continue;
    let column = 0;
    while (want !== undefined && have !== undefined && column < want.length && want[column] === have[column]) column++;
    const start = Math.max(0, column - 60);
    const clip = (line: string | undefined) => {
      if (line === undefined) return '(end of file)';
      const piece = line.slice(start, start + 160);
      return `${start > 0 ? '…' : ''}${piece}${start + 160 < line.length ? '…' : ''}`;
    };
    return `line ${i + 1}, column ${column + 1}:\n      in generated/: ${clip(have)}\n      fresh:         ${clip(want)}`;
  }
  return 'contents differ';
}
