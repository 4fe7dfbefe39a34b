/**
 * Vitest's global setup (vitest.config.ts): what every test file would otherwise make for itself, made once
 * per run in the main process and handed to the workers through `provide`/`inject` (issue 33):
 * - the migrated PGlite dump (test/support/templates.ts), cached on disk by a hash of the migrations;
 * - with PIXGATE_TEST_DATABASE_URL, a migrated Postgres template database, dropped at the end of the run;
 * - the fake provider's certificates (nine RSA 2048 keys, about a second of CPU);
 * - with PIXGATE_TEST_VIA_PRISM=1, one Prism validating proxy for every gateway of the run
 *   (scripts/lib/prism-proxy.ts, startSharedPrism), instead of one per gateway.
 */
import type { TestProject } from 'vitest/node';
import { generateCertificates } from '../../scripts/fakepsp/certificates.ts';
import type { FakePspCertificates } from '../../scripts/fakepsp/types.ts';
import type { TempDatabase } from '../../scripts/lib/postgres.ts';
import { startSharedPrism, type SharedPrism } from '../../scripts/lib/prism-proxy.ts';
import { createPostgresTemplate, ensurePgliteTemplate } from './templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump (a file path). */
    pgliteTemplate: string;
    /** The migrated Postgres template database's name, when the run has PIXGATE_TEST_DATABASE_URL. */
    postgresTemplate: string | undefined;
    fakePspCertificates: FakePspCertificates;
    /** The shared Prism's URL, when the run has PIXGATE_TEST_VIA_PRISM=1. */
    sharedPrismUrl: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.PIXGATE_TEST_DATABASE_URL;
  const [pgliteFile, postgres, certificates, prism]: [string, TempDatabase | undefined, FakePspCertificates, SharedPrism | undefined] = await Promise.all([
    ensurePgliteTemplate(),
    serverUrl ? createPostgresTemplate(serverUrl) : Promise.resolve(undefined),
    generateCertificates(),
    process.env.PIXGATE_TEST_VIA_PRISM === '1' ? startSharedPrism() : Promise.resolve(undefined),
  ]);
  project.provide('pgliteTemplate', pgliteFile);
  project.provide('postgresTemplate', postgres?.name);
  project.provide('fakePspCertificates', certificates);
  project.provide('sharedPrismUrl', prism?.baseUrl);
  return async () => {
    await prism?.stop();
    await postgres?.drop();
  };
}
