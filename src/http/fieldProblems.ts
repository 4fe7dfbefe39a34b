import { copiedIdentifierHint, fieldMessages as say, identifierHint, isAmountField, labelOf, numberText, PATTERN_HINTS } from '../messages/fields.ts';

/**
 * express-openapi-validator's findings (Ajv's English, one per failing keyword) as the web applications'
 * people read them: Portuguese, the field's label from the API's label dictionary, what is wrong and how to
 * fix it, amounts in reais. Every keyword Ajv emits has a text (test/http/fieldProblems.test.ts); none
 * repeats Ajv's words or the API's field name.
 */

export interface FieldIssue {
  path: string;
  message: string;
  errorCode?: string;
}

export interface FieldProblem {
  message: string;
  /** The field's API name, dotted (`customer.document.number`); absent for the body as a whole. */
  field?: string | undefined;
}

/**
 * The failing rule: Ajv's keyword, or what the validator's own parameter checks mean (a query value with
 * reserved characters is off the parameter's shape; an empty one is missing).
 */
export const keywordOf = (issue: FieldIssue): string => {
  if (issue.errorCode) return issue.errorCode.replace(/\.openapi\.validation$/, '');
  if (/must be url encoded/.test(issue.message)) return 'urlEncoded';
  if (/^Empty value found/.test(issue.message)) return 'required';
  return '';
};

/** `/body/customer/name` → `customer.name`; `/query/limit` → `limit`. */
export function fieldOf(path: string): string {
  return path.split('/').slice(2).join('.');
}

const locationOf = (path: string): string => path.split('/')[1] ?? '';

const isUnknownQueryParameter = (issue: FieldIssue): boolean => /^Unknown query parameter/.test(issue.message);

/** The first number in Ajv's message (`must NOT have more than 200 characters` → 200). */
function limitIn(issue: FieldIssue): number | undefined {
  const match = /(-?\d+(?:\.\d+)?)/.exec(issue.message);
  return match ? Number(match[1]) : undefined;
}

/** The quoted name in Ajv's message (`must match format "email"` → email). */
function quotedIn(issue: FieldIssue): string {
  return /"([^"]+)"/.exec(issue.message)?.[1] ?? '';
}

function typeText(field: string, label: string, issue: FieldIssue): string {
  const expected = /must be (\w+)/.exec(issue.message)?.[1] ?? '';
  if (expected === 'integer' || expected === 'number') {
    if (isAmountField(field)) return say.notAmount(label);
    return expected === 'integer' ? say.notInteger(label) : say.notNumber(label);
  }
  if (expected === 'string') return say.notText(label);
  if (expected === 'boolean') return say.notChoice(label);
  if (expected === 'array') return say.notList(label);
  if (expected === 'object') return say.notGroup(label);
  return say.invalid(label);
}

function formatText(field: string, label: string, issue: FieldIssue): string {
  const format = quotedIn(issue);
  if (format === 'email') return say.email(label);
  if (format === 'date') return say.date(label);
  if (format === 'date-time') return say.dateTime(label);
  if (format === 'uri' || format === 'url' || format === 'uri-reference') return say.url(label);
  return say.pattern(label, PATTERN_HINTS[field] ?? PATTERN_HINTS[field.split('.').pop() ?? field]);
}

function patternText(field: string, label: string, issue: FieldIssue): string {
  const name = field.split('.').pop() ?? field;
  // `\S`: something other than spaces (a name of only spaces is no name).
  if (quotedIn(issue) === '\\S') return say.required(label);
  if (/email$/i.test(name)) return say.email(label);
  const hint = PATTERN_HINTS[field] ?? PATTERN_HINTS[name];
  if (hint) return say.pattern(label, hint);
  return say.pattern(label, undefined);
}

/** An identifier (a path or query parameter, a body field `…Id`): picked from a list or copied, never typed. */
const isIdentifier = (field: string, issue: FieldIssue): boolean => locationOf(issue.path) !== 'body' || /Id$/.test(field.split('.').pop() ?? field);

/** The problem of one issue about one field (`issue.path` below `/body`, `/query`, `/params`…). */
export function describeFieldIssue(issue: FieldIssue, labels: Readonly<Record<string, string>>): FieldProblem {
  const field = fieldOf(issue.path);
  if (isUnknownQueryParameter(issue)) return { message: say.unknownQueryParameter(field), field };
  const keyword = keywordOf(issue);
  if (field === '') {
    if (keyword === 'minProperties') return { message: say.nothingToChange };
    if (keyword === 'maxProperties') return { message: say.oneOfFields };
    return { message: say.bodyNotObject };
  }
  if (keyword === 'additionalProperties') return { message: say.unknownField(field), field };
  const label = labelOf(field, labels);
  if (/^ipAllowlist\.\d+$/.test(field) && keyword !== 'type') return { message: say.ipAllowlistEntry(label), field };
  const limit = limitIn(issue);
  const limitText = limit === undefined ? '' : String(limit);
  const hint = PATTERN_HINTS[field] ?? PATTERN_HINTS[field.split('.').pop() ?? field];
  // An identifier of the wrong length is not a length problem for a person: it is not one of theirs.
  const shapeRule = ['minLength', 'maxLength', 'pattern', 'format'].includes(keyword) || (keyword === 'urlEncoded' && /Id$/.test(field));
  if (isIdentifier(field, issue) && hint === undefined && shapeRule) {
    return { message: say.pattern(label, locationOf(issue.path) === 'body' ? copiedIdentifierHint : identifierHint), field };
  }
  const texts: Record<string, () => string> = {
    required: () => say.required(label),
    urlEncoded: () => say.pattern(label, hint),
    type: () => typeText(field, label, issue),
    minLength: () => (limit === undefined || limit <= 1 ? say.required(label) : say.minLength(label, limitText)),
    maxLength: () => say.maxLength(label, limitText),
    pattern: () => patternText(field, label, issue),
    format: () => formatText(field, label, issue),
    enum: () => say.choice(label),
    const: () => say.choice(label),
    minimum: () => (limit === undefined ? say.invalid(label) : say.minimum(label, numberText(field, limit))),
    maximum: () => (limit === undefined ? say.invalid(label) : say.maximum(label, numberText(field, limit))),
    exclusiveMinimum: () => (limit === undefined ? say.invalid(label) : say.above(label, numberText(field, limit))),
    exclusiveMaximum: () => (limit === undefined ? say.invalid(label) : say.below(label, numberText(field, limit))),
    multipleOf: () => (limit === undefined ? say.invalid(label) : say.multipleOf(label, numberText(field, limit))),
    minItems: () => (limit === undefined || limit <= 1 ? say.required(label) : say.minItems(label, limitText)),
    maxItems: () => say.maxItems(label, limitText),
    uniqueItems: () => say.uniqueItems(label),
    minProperties: () => say.required(label),
    maxProperties: () => say.invalid(label),
  };
  return { message: (texts[keyword] ?? (() => say.invalid(label)))(), field };
}

/** Keywords that only sum up others (`oneOf` over the alternatives' own failures): reported last. */
const SUMMARY_KEYWORDS = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'not', 'discriminator']);

/**
 * One problem per failing field, the body as a whole first, then the fields in the validator's order
 * (the schema's), unknown fields and parameters last; a field's specific finding before a summary one.
 */
export function describeFieldIssues(issues: readonly FieldIssue[], labels: Readonly<Record<string, string>>): FieldProblem[] {
  const rank = (issue: FieldIssue): number => {
    if (issue.path === '/body' && keywordOf(issue) === 'type') return 0;
    if (isUnknownQueryParameter(issue) || keywordOf(issue) === 'additionalProperties') return 3;
    // The body's number of fields (`minProperties`, `maxProperties`): after what is wrong with a field.
    if (fieldOf(issue.path) === '') return 4;
    return SUMMARY_KEYWORDS.has(keywordOf(issue)) ? 2 : 1;
  };
  const ordered = issues.map((issue, index) => ({ issue, index })).sort((a, b) => rank(a.issue) - rank(b.issue) || a.index - b.index);
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const { issue } of ordered) {
    const problem = describeFieldIssue(issue, labels);
    // One problem per field, and one sentence however many entries of a list fail alike.
    const key = problem.field ?? '';
    if (seen.has(key) || seen.has(`text:${problem.message}`)) continue;
    seen.add(key);
    seen.add(`text:${problem.message}`);
    problems.push(problem);
    if (key === '' && problem.message === say.bodyNotObject) break;
  }
  return problems;
}
