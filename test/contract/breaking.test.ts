/**
 * `npm run check:breaking` (scripts/check-breaking.ts) on mutated copies of the working documents: it fails on
 * a removed response field, a new required request field, a narrowed enum, a webhook payload field no longer
 * required and a new operation without its date; it passes and lists a new optional field; `--publish`
 * refuses additive changes without a dated Versioning entry and publishes them with one. Every run uses a
 * temporary baseline folder (a copy of contract/baseline/), never the committed one.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../scripts/lib/paths.ts';
import { runNodeScript } from '../../scripts/lib/run.ts';

// Schema shapes this test edits, as the bundled documents hold them.
interface Schema {
  properties: Record<string, unknown>;
  required?: string[];
  enum?: string[];
}
interface Document {
  info: { description: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, { schema: Schema }> };
}

const BASELINE = fromRoot('contract', 'baseline');
const work = mkdtempSync(path.join(os.tmpdir(), 'pixgate-breaking-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let runs = 0;
/** A fresh copy of the baseline folder and of both working documents, with `mutate` applied to them. */
function prepare(mutate: (openapi: Document, asyncapi: Document) => void): { dir: string; args: string[] } {
  const dir = path.join(work, `run-${++runs}`);
  cpSync(BASELINE, path.join(dir, 'baseline'), { recursive: true });
  const openapi = JSON.parse(readFileSync(fromRoot('generated', 'openapi.json'), 'utf8')) as Document;
  const asyncapi = JSON.parse(readFileSync(fromRoot('generated', 'asyncapi.json'), 'utf8')) as Document;
  // The generated bundle adds code samples to every operation; `npm run check:breaking` compares the documents
  // bundled from openapi/, which have none. Without them here, the copies are what the gate sees.
  for (const item of Object.values(openapi.paths)) {
    for (const operation of Object.values(item)) delete (operation as Record<string, unknown>)['x-codeSamples'];
  }
  mutate(openapi, asyncapi);
  writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(openapi));
  writeFileSync(path.join(dir, 'asyncapi.json'), JSON.stringify(asyncapi));
  const args = ['--baseline', path.join(dir, 'baseline'), '--openapi', path.join(dir, 'openapi.json'), '--asyncapi', path.join(dir, 'asyncapi.json')];
  return { dir, args };
}

async function check(args: string[]): Promise<{ code: number; output: string }> {
  const result = await runNodeScript(fromRoot('scripts', 'check-breaking.ts'), args);
  return { code: result.code, output: `${result.stdout}\n${result.stderr}` };
}

function schema(document: Document, name: string): Schema {
  const found = document.components.schemas[name];
  if (!found) throw new Error(`no schema ${name} in the document`);
  return found;
}

describe('npm run check:breaking', () => {
  it('passes on the working documents as committed (they are the published baseline or additive to it)', async () => {
    const { code, output } = await check(prepare(() => {}).args);
    expect(code, output).toBe(0);
    expect(output).toContain('0 breaking');
  });

  it('fails on a removed response field (expiresAt of the 201 of POST /v1/pix)', async () => {
    const { args } = prepare((openapi) => {
      const created = schema(openapi, 'ChargeCreated');
      delete created.properties['expiresAt'];
      created.required = (created.required ?? []).filter((name) => name !== 'expiresAt');
    });
    const { code, output } = await check(args);
    expect(code, output).toBe(1);
    expect(output).toMatch(/major\s+removed\s+POST \/v1\/pix responses\/201\/.*expiresAt/);
    expect(output).toContain('property-removed');
  });

  it('fails on a new required request field', async () => {
    const { args } = prepare((openapi) => {
      const request = schema(openapi, 'CreateChargeRequest');
      request.properties['invoiceNumber'] = { type: 'string' };
      request.required = [...(request.required ?? []), 'invoiceNumber'];
    });
    const { code, output } = await check(args);
    expect(code, output).toBe(1);
    expect(output).toContain('required-properties-added');
    expect(output).toContain('invoiceNumber');
  });

  it('fails on a narrowed enum (the type filter of GET /v1/transactions loses withdrawal)', async () => {
    const { args } = prepare((openapi) => {
      const parameter = openapi.components.parameters['TransactionTypeQuery'];
      if (!parameter) throw new Error('no TransactionTypeQuery parameter');
      parameter.schema.enum = ['pix_in'];
    });
    const { code, output } = await check(args);
    expect(code, output).toBe(1);
    expect(output).toContain('enum-values-removed');
    expect(output).toContain('GET /v1/transactions');
  });

  it('fails on a webhook payload field no longer required, in the AsyncAPI document too', async () => {
    const { args } = prepare((_openapi, asyncapi) => {
      const paid = schema(asyncapi, 'TransactionPaid');
      paid.required = (paid.required ?? []).filter((name) => name !== 'payer');
    });
    const { code, output } = await check(args);
    expect(code, output).toBe(1);
    expect(output).toMatch(/webhooks \(AsyncAPI\): 1 breaking/);
    expect(output).toContain('required-properties-removed');
  });

  it('passes on a new optional field (request and response) and lists it as additive', async () => {
    const { args } = prepare((openapi) => {
      schema(openapi, 'CreateChargeRequest').properties['invoiceNumber'] = { type: 'string', maxLength: 64 };
      schema(openapi, 'ChargeCreated').properties['qrCodeUrl'] = { type: 'string' };
    });
    const { code, output } = await check(args);
    expect(code, output).toBe(0);
    expect(output).toMatch(/merchant API \(OpenAPI, webhooks included\): 0 breaking, 2 additive/);
    expect(output).toMatch(/minor\s+added\s+POST \/v1\/pix requestBody\/.*invoiceNumber/);
    expect(output).toMatch(/minor\s+added\s+POST \/v1\/pix responses\/201\/.*qrCodeUrl/);
  });

  it('fails on a new operation without x-pixgate-since, passes once it is dated', async () => {
    const addOperation = (openapi: Document, dated: boolean) => {
      const read = openapi.paths['/v1/balance']?.['get'] as Record<string, unknown>;
      openapi.paths['/v1/balance/history'] = {
        get: { ...read, operationId: 'getBalanceHistory', ...(dated ? { 'x-pixgate-since': '2026-12-01' } : {}) },
      };
      delete (openapi.paths['/v1/balance/history']['get'] as Record<string, unknown>)['x-codeSamples'];
    };
    const undated = await check(prepare((openapi) => addOperation(openapi, false)).args);
    expect(undated.code, undated.output).toBe(1);
    expect(undated.output).toContain('GET /v1/balance/history: a new operation without x-pixgate-since');
    const dated = await check(prepare((openapi) => addOperation(openapi, true)).args);
    expect(dated.code, dated.output).toBe(0);
  });

  it('--publish refuses an additive change without a dated Versioning entry, and publishes it with one', async () => {
    const addField = (openapi: Document) => {
      schema(openapi, 'ChargeCreated').properties['qrCodeUrl'] = { type: 'string' };
    };
    const refused = prepare(addField);
    const first = await check([...refused.args, '--publish', '--date', '2026-12-01']);
    expect(first.code, first.output).toBe(1);
    expect(first.output).toContain('not published');
    expect(readFileSync(path.join(refused.dir, 'baseline', 'published.json'), 'utf8')).toBe(
      readFileSync(path.join(BASELINE, 'published.json'), 'utf8'),
    );

    const accepted = prepare((openapi) => {
      addField(openapi);
      openapi.info.description = openapi.info.description.replace(
        /(## Versioning\n(?:.+\n)+?)(- \d{4}-\d{2}-\d{2})/,
        '$1- 2026-12-01: optional `qrCodeUrl` in the 201 of POST /v1/pix (additive).\n$2',
      );
    });
    const second = await check([...accepted.args, '--publish', '--date', '2026-12-01']);
    expect(second.code, second.output).toBe(0);
    const published = JSON.parse(readFileSync(path.join(accepted.dir, 'baseline', 'published.json'), 'utf8')) as { published: string };
    expect(published.published).toBe('2026-12-01');
    const baseline = JSON.parse(readFileSync(path.join(accepted.dir, 'baseline', 'openapi.json'), 'utf8')) as Document;
    expect(schema(baseline, 'ChargeCreated').properties).toHaveProperty('qrCodeUrl');
    // The new baseline is what the next check compares with: the same documents now show no change.
    const again = await check(accepted.args);
    expect(again.output).toMatch(/0 breaking, 0 additive/);
  });
});
