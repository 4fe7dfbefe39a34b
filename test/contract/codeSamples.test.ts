import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { API_KEY_PLACEHOLDER, SAMPLE_LANGUAGES } from '../../scripts/lib/codeSamples.ts';
import { VERIFICATION_HEADING, VERIFICATION_LANGUAGES, WEBHOOK_TEST_VECTOR, verificationMarkdown } from '../../scripts/lib/webhookSamples.ts';
import { ROOT, fromRoot } from '../../scripts/lib/paths.ts';
import { listFiles } from '../../scripts/lib/tree.ts';
import { createMerchant, fund, relaxLimits, useGateway, type MerchantFixture } from '../support/gateway.ts';
import { loadGenerated } from './helpers.ts';

const run = promisify(execFile);

/** The x-codeSamples that `npm run generate` adds to generated/openapi.json (scripts/lib/codeSamples.ts). */
interface Sample {
  lang: string;
  label: string;
  source: string;
}
const document = loadGenerated('openapi.json') as unknown as { servers: { url: string }[]; paths: Record<string, Record<string, { 'x-codeSamples'?: Sample[] }>> };
const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${route}`, method, route, samples: operation['x-codeSamples'] ?? [] })),
);
const sampleOf = (operation: (typeof operations)[number], lang: string) => operation.samples.find((sample) => sample.lang === lang)?.source ?? '';

describe('x-codeSamples of the merchant operations (generated/openapi.json)', () => {
  it('every operation has curl, TypeScript, Python, PHP and Java samples', () => {
    expect(operations.length).toBeGreaterThanOrEqual(8);
    for (const operation of operations) {
      expect(operation.samples.map((sample) => sample.lang), operation.name).toEqual([...SAMPLE_LANGUAGES]);
      for (const sample of operation.samples) {
        expect(sample.source.trim(), `${operation.name} ${sample.lang}`).not.toBe('');
        expect(sample.source, `${operation.name} ${sample.lang}`).toContain(API_KEY_PLACEHOLDER);
      }
      expect(sampleOf(operation, 'Shell'), operation.name).toMatch(new RegExp(`^curl --request ${operation.method.toUpperCase()} `));
      expect(sampleOf(operation, 'TypeScript'), operation.name).toContain(`pixgate.${operation.method.toUpperCase()}('${operation.route}'`);
      expect(sampleOf(operation, 'Python'), operation.name).toContain(`requests.${operation.method}(`);
      expect(sampleOf(operation, 'PHP'), operation.name).toContain(`$client->request('${operation.method.toUpperCase()}'`);
      expect(sampleOf(operation, 'Java'), operation.name).toContain(`.method("${operation.method.toUpperCase()}"`);
    }
  });

  it('are generated only: the hand-written sources have none', () => {
    const sources = listFiles(fromRoot('openapi')).filter((file) => /\.ya?ml$/.test(file));
    expect(sources.length).toBeGreaterThan(0);
    for (const file of sources) expect(readFileSync(fromRoot('openapi', file), 'utf8'), file).not.toContain('x-codeSamples');
  });

  it('the TypeScript samples type-check against pixgate/client', () => {
    const config = ts.getParsedCommandLineOfConfigFile(fromRoot('tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    if (!config) throw new Error('tsconfig.json not readable');
    // Virtual files inside the repository, so `pixgate/client` resolves as the package's own export.
    const virtual = new Map(operations.map((operation, i) => [path.join(ROOT, 'test', 'contract', `__sample_${i}.ts`), sampleOf(operation, 'TypeScript')]));
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (file) => virtual.get(path.resolve(file)) ?? readFile(file);
    host.fileExists = (file) => virtual.has(path.resolve(file)) || fileExists(file);
    host.getSourceFile = (file, language, ...rest) => {
      const source = virtual.get(path.resolve(file));
      return source === undefined ? getSourceFile(file, language, ...rest) : ts.createSourceFile(file, source, language);
    };
    const program = ts.createProgram({ rootNames: [...virtual.keys()], options: config.options, host });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });
});

describe('signature verification samples of the webhooks page (generated/docs/webhooks.html)', () => {
  const vector = WEBHOOK_TEST_VECTOR;

  it('use the test vector the AsyncAPI document publishes, which the Standard Webhooks library confirms', () => {
    const asyncapi = loadGenerated('asyncapi.json') as { info: { description: string } };
    for (const value of [vector.secret, vector.id, String(vector.timestamp), vector.body, vector.signature]) expect(asyncapi.info.description).toContain(value);
    expect(new Webhook(vector.secret).sign(vector.id, new Date(vector.timestamp * 1000), vector.body)).toBe(vector.signature);
  });

  it('cover JavaScript/TypeScript, Python, PHP and Java with their Standard Webhooks library, each checking the vector', () => {
    const markdown = verificationMarkdown();
    const sections = markdown.split(/^### /m).slice(1);
    expect(sections.map((section) => section.split('\n')[0])).toEqual([...VERIFICATION_LANGUAGES]);
    const libraries = ["from 'standardwebhooks'", 'from standardwebhooks.webhooks import Webhook', '\\StandardWebhooks\\Webhook', 'import com.standardwebhooks.Webhook;'];
    sections.forEach((section, i) => {
      expect(section).toContain(libraries[i]);
      expect(section).toContain(vector.signature);
      expect(section).toContain(vector.secret);
      expect(section).toContain(vector.id);
    });
  });

  it('are on the generated page (the page copy of the document only: generated/asyncapi.json stays the source)', () => {
    const html = readFileSync(fromRoot('generated', 'docs', 'webhooks.html'), 'utf8');
    expect(html).toContain(`## ${VERIFICATION_HEADING}`);
    expect(html.split(vector.signature).length - 1).toBeGreaterThan(VERIFICATION_LANGUAGES.length);
    expect(JSON.stringify(loadGenerated('asyncapi.json'))).not.toContain(VERIFICATION_HEADING);
  });
});

describe('the curl samples against a running gateway', () => {
  const gateway = useGateway();
  let merchant: MerchantFixture;
  beforeAll(async () => {
    merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId);
    await fund(gateway, merchant, 10_000);
  });

  it('are requests the gateway accepts as written (documented examples: no 400, 401, 415 or 5xx)', async () => {
    const server = document.servers[0]?.url ?? '';
    for (const operation of operations) {
      const source = sampleOf(operation, 'Shell').split(server).join(gateway.baseUrl).split(API_KEY_PLACEHOLDER).join(merchant.apiKey);
      // The sample is shell: run it by the shell, with curl printing the status on the last line.
      const { stdout } = await run('sh', ['-c', `${source.trimEnd()} --silent --output /dev/null --write-out '%{http_code}'`]);
      const status = Number(stdout.trim());
      // The example ids belong to no transaction (or batch, or payment link) of this account: 404 is the right answer there.
      const expected = /\{(id|batchId|linkId)\}/.test(operation.route) ? [404] : operation.method === 'post' ? [200, 201, 202] : [200];
      expect(expected, `${operation.name}: ${status}`).toContain(status);
    }
  });
});
