/**
 * Reporters of every vitest run: the default one, plus a JUnit file in `reports/junit/` when
 * `PIXGATE_JUNIT` names the run (CI sets it for each suite; `node scripts/ci-summary.ts` adds them up).
 */
const name = process.env.PIXGATE_JUNIT;

export const reporters = name ? ['default', 'junit'] : ['default'];
export const outputFile = name ? { junit: `reports/junit/${name.replace(/\W+/g, '-')}-${process.pid}.xml` } : undefined;
