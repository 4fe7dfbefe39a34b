/**
 * `npm run check:generated`: regenerates into a temporary folder and fails, listing the files, when the
 * committed generated/ differs (changed, missing or extra files). Run it in CI and before committing a
 * change to openapi/ or asyncapi/; fix a failure with `npm run generate`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GENERATED_DIR, fromRoot, relativeToRoot } from './lib/paths.ts';
import { runNodeScript } from './lib/run.ts';
import { compareTrees, firstDifference } from './lib/tree.ts';

const freshDir = mkdtempSync(path.join(os.tmpdir(), 'pixgate-check-generated-'));
try {
  const result = await runNodeScript(fromRoot('scripts', 'generate.ts'), ['--out', freshDir]);
  if (result.code !== 0) {
    console.error(`check:generated: generation failed\n${result.stdout}${result.stderr}`);
    process.exitCode = 1;
  } else {
    const difference = compareTrees(freshDir, GENERATED_DIR);
    const committed = relativeToRoot(GENERATED_DIR);
    const problems = [
      ...difference.changed.map(
        (name) => `  changed  ${committed}/${name}\n    ${firstDifference(path.join(freshDir, name), path.join(GENERATED_DIR, name))}`,
      ),
      ...difference.missing.map((name) => `  missing  ${committed}/${name} (generate writes it; it is not committed)`),
      ...difference.extra.map((name) => `  extra    ${committed}/${name} (nothing generates it any more)`),
    ];
    if (problems.length > 0) {
      console.error(`check:generated: ${committed}/ is out of date with openapi/ and asyncapi/:\n${problems.join('\n')}`);
      console.error('Run `npm run generate` and commit the result.');
      process.exitCode = 1;
    } else {
      console.log(`check:generated: ${committed}/ is up to date.`);
    }
  }
} finally {
  rmSync(freshDir, { recursive: true, force: true });
}
