/**
 * Which test files can behave differently on Postgres than on PGlite (issue 33). `npm run test:pg` runs the
 * suites again on the real server for what only it has (concurrency, locking, plans, connections); a file
 * that never reaches a database runs exactly the same there, so the Postgres pass leaves it to `npm test`.
 *
 * A file reaches a database when it imports, directly or through other files of the repository, the module
 * that opens one (src/db/connect.ts), the one that creates Postgres databases (scripts/lib/postgres.ts), or a
 * file that reads PIXGATE_TEST_DATABASE_URL (the harnesses of the process and fault tests). The walk is over
 * the files' relative imports, static and dynamic; anything it cannot tell keeps the file in.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fromRoot, relativeToRoot } from './paths.ts';

const REACHES_DATABASE = [fromRoot('src', 'db', 'connect.ts'), fromRoot('scripts', 'lib', 'postgres.ts')];
const DATABASE_VARIABLE = 'PIXGATE_TEST_DATABASE_URL';
/** `import … from './x'`, `export … from './x'`, `import './x'` and `import('./x')`, relative ones only. */
const RELATIVE_IMPORT = /(?:\b(?:import|export)\b[^'"`;]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function relativeImports(file: string, source: string): string[] {
  return [...source.matchAll(RELATIVE_IMPORT)].map((match) => path.resolve(path.dirname(file), match[1]!));
}

/** Every `*.test.ts` under `test/`, as absolute paths. */
function testFiles(dir = fromRoot('test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * The test files (repository-relative) that replace a module with `vi.mock`: a mock applies only to a module
 * not loaded yet, so vitest.config.ts runs these isolated (every other file shares its worker's modules).
 */
export function testFilesMockingModules(): string[] {
  return testFiles()
    .filter((file) => /\bvi\.mock\(/.test(readFileSync(file, 'utf8')))
    .map(relativeToRoot)
    .sort();
}

/** The test files (repository-relative) that reach no database: `npm run test:pg` leaves them out. */
export function testFilesWithoutDatabase(): string[] {
  const known = new Map<string, boolean>();
  const reaches = (file: string, walking: Set<string>): boolean => {
    const cached = known.get(file);
    if (cached !== undefined) return cached;
    if (REACHES_DATABASE.includes(file)) return true;
    if (walking.has(file)) return false;
    walking.add(file);
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      // Not a file of ours (a directory import, a generated file not written yet): keep the importer in.
      return true;
    }
    const result = source.includes(DATABASE_VARIABLE) || relativeImports(file, source).some((imported) => reaches(imported, walking));
    walking.delete(file);
    known.set(file, result);
    return result;
  };
  return testFiles()
    .filter((file) => !reaches(file, new Set()))
    .map(relativeToRoot)
    .sort();
}
