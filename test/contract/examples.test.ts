/**
 * Every example in the bundled documents satisfies its schema (Ajv, JSON Schema 2020-12, formats on):
 * media-type `example`/`examples`, parameter and header examples, schema `examples`, and AsyncAPI message
 * examples (payload and headers).
 */
import { describe, expect, it } from 'vitest';
import { asyncApiExamples, exampleValidator, openApiExamples } from '../../scripts/lib/examples.ts';
import type { ExampleSite } from '../../scripts/lib/examples.ts';
import type { Json } from '../../scripts/lib/json.ts';
import { hasGenerated, loadGenerated } from './helpers.ts';

function failures(document: Json, name: string, sites: ExampleSite[]): string[] {
  const validator = exampleValidator(document, name);
  return sites.flatMap((site) => {
    const problem = validator.validate(site);
    return problem === undefined ? [] : [`${site.where}\n    schema ${site.schemaPointer}\n    ${problem}`];
  });
}

const documents: { file: string; kind: 'openapi' | 'asyncapi' }[] = [
  { file: 'openapi.json', kind: 'openapi' },
  { file: 'asyncapi.json', kind: 'asyncapi' },
  // The dashboard's own API (openapi/dashboard): its examples are the forms' messages, checked the same way.
  { file: 'dashboard-openapi.json', kind: 'openapi' },
];
if (hasGenerated('admin-openapi.json')) documents.push({ file: 'admin-openapi.json', kind: 'openapi' });

describe.each(documents)('examples of generated/$file', ({ file, kind }) => {
  const document = loadGenerated(file);
  const sites = kind === 'openapi' ? openApiExamples(document) : asyncApiExamples(document);

  it('has examples', () => {
    expect(sites.length).toBeGreaterThan(0);
  });

  it('every example validates against its schema', () => {
    const problems = failures(document, file, sites);
    expect(problems, `${problems.length} of ${sites.length} examples are invalid:\n${problems.join('\n')}`).toEqual([]);
  });
});
