/**
 * Reads facts out of the human-readable contract (../shared/spec/pix-gateway-api.md) so the contract tests
 * compare the OpenAPI/AsyncAPI documents with the contract itself, not with a copy of it:
 * - the operations (`### POST /v1/pix - create a charge` headings),
 * - which operations are rate limited (the Limits section),
 * - the Portuguese messages of the Errors and Limits sections, as patterns,
 * - the canonical webhook events (the Events section).
 */
import { existsSync, readFileSync } from 'node:fs';
import { CONTRACT_FILE } from './paths.ts';

export function readContract(file: string = CONTRACT_FILE): string {
  if (!existsSync(file)) throw new Error(`Contract not found at ${file}: set PIXGATE_CONTRACT to its path`);
  return readFileSync(file, 'utf8');
}

/** Body of a `## Title` section (up to the next `## ` heading); throws when it is missing. */
export function section(markdown: string, title: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${title}`);
  if (start < 0) throw new Error(`The contract has no "## ${title}" section`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

export interface ContractOperation {
  method: string;
  path: string;
  title: string;
}

const OPERATION_HEADING = /^###\s+(GET|POST|PUT|PATCH|DELETE)\s+(\/\S+)\s+-\s+(.+?)\s*$/;

/** The operations of the contract, from its `### METHOD /path - title` headings. */
export function contractOperations(markdown: string): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const line of markdown.split('\n')) {
    const match = OPERATION_HEADING.exec(line);
    if (match) operations.push({ method: match[1] ?? '', path: match[2] ?? '', title: match[3] ?? '' });
  }
  return operations;
}

/** `METHOD /v1/...` mentions (method optional) in a piece of text. */
const ENDPOINT_MENTION = /(?:\b(GET|POST|PUT|PATCH|DELETE)\s+)?(\/v1(?:\/[A-Za-z0-9_{}.-]*[A-Za-z0-9_}])*)/g;

export interface EndpointRef {
  /** Absent when the contract names only the path (`/v1/pix`). */
  method?: string;
  path: string;
}

function endpointMentions(text: string): EndpointRef[] {
  const found: EndpointRef[] = [];
  for (const match of text.matchAll(ENDPOINT_MENTION)) {
    const path = match[2] ?? '';
    const ref: EndpointRef = match[1] ? { method: match[1], path } : { path };
    if (!found.some((f) => f.path === ref.path && f.method === ref.method)) found.push(ref);
  }
  return found;
}

/**
 * Operations the contract rate limits: named in the Limits section in a table row with a numeric
 * "per hour/minute/second" limit, or in a rule that gives 429 bodies.
 */
export function rateLimitedOperations(markdown: string): string[] {
  const limits = section(markdown, 'Limits');
  const operations = new Set<string>();
  for (const line of limits.split('\n')) {
    const outside = stripBackticked(line);
    const numericLimit = line.startsWith('|') && /\d+\s+(requests\s+)?per\s+(hour|minute|second)/.test(outside);
    const gives429 = /\b429\b/.test(outside);
    if (!numericLimit && !gives429) continue;
    for (const mention of endpointMentions(outside)) {
      if (mention.method) operations.add(`${mention.method} ${mention.path}`);
    }
  }
  return [...operations].sort();
}

/** The 21 canonical event names, from the Events section ("Canonical events (21), ..." and its list). */
export function canonicalEvents(markdown: string): string[] {
  const lines = section(markdown, 'Events').split('\n');
  const headerIndex = lines.findIndex((line) => /Canonical events \((\d+)\)/.test(line));
  if (headerIndex < 0) throw new Error('The Events section has no "Canonical events (N)" item');
  const expected = Number(/Canonical events \((\d+)\)/.exec(lines[headerIndex] ?? '')?.[1]);
  const events: string[] = [];
  for (const line of lines.slice(headerIndex + 1)) {
    const item = /^\s+-\s+(.+)$/.exec(line);
    if (!item) break;
    events.push(...(item[1] ?? '').split(',').map((name) => name.trim().replace(/`/g, '')).filter(Boolean));
  }
  if (events.length !== expected) {
    throw new Error(`The contract announces ${expected} canonical events but lists ${events.length}: ${events.join(', ')}`);
  }
  return events;
}

export interface ContractMessage {
  /** The text as the contract writes it, placeholders included. */
  text: string;
  /** Anchored pattern: placeholders are wildcards, `<SERVICE>` is the service name. */
  pattern: RegExp;
  /** HTTP status the contract files it under, when it says. */
  status?: number;
  /** Operations the contract associates it with; empty when it names none. */
  endpoints: EndpointRef[];
  /** Contract section and line number, for failure messages. */
  source: string;
}

const BACKTICKED = /`([^`]+)`/g;

function stripBackticked(text: string): string {
  return text.replace(BACKTICKED, ' ');
}

/** Splits a line at `;` outside backticks (a message may itself contain `;`). */
function clauses(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inCode = false;
  for (const char of line) {
    if (char === '`') inCode = !inCode;
    if (char === ';' && !inCode) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Turns a contract message into an anchored pattern. Placeholders become wildcards: `<VALUE>`, `<N>`,
 * `<id>`, `<key>` (any `<word>`), `R$ X,YY`, `X,YY`, a standalone `X`, and a trailing `...` (the contract
 * abbreviates). `<SERVICE>` becomes the service name.
 */
export function messagePattern(text: string, serviceName = 'PixGate'): RegExp {
  const WILDCARD = '\uE000';
  const ANY_TAIL = '\uE001';
  let marked = text.replace(/<SERVICE>/g, serviceName);
  marked = marked.replace(/(\.\.\.|…)\s*$/, ANY_TAIL);
  marked = marked
    .replace(/R\$\s?X,YY/g, WILDCARD)
    .replace(/X,YY/g, WILDCARD)
    .replace(/<[A-Za-z_]+>/g, WILDCARD)
    .replace(/(?<![\p{L}\p{N}])X(?![\p{L}\p{N}])/gu, WILDCARD);
  const source = marked
    .split(/(\uE000|\uE001)/u)
    .map((part) => (part === WILDCARD ? '.+?' : part === ANY_TAIL ? '.*' : escapeRegex(part)))
    .join('');
  return new RegExp(`^${source}$`, 'u');
}

/** Paths of the contract's operations whose last segment starts with a word ("withdraw", "recipient"). */
function pathsForWords(words: string[], operationPaths: string[]): EndpointRef[] {
  const refs: EndpointRef[] = [];
  for (const word of words) {
    for (const path of operationPaths) {
      const last = path.split('/').filter((s) => s && !s.startsWith('{')).pop() ?? '';
      if (word && last.startsWith(word) && !refs.some((r) => r.path === path)) refs.push({ path });
    }
  }
  return refs;
}

/**
 * Every Portuguese message of the Errors and Limits sections.
 *
 * Context rules: in a table row the endpoints are the paths named anywhere in the row outside backticks;
 * elsewhere the line is split at `;` and each clause names its own endpoints. A text introduced by
 * "(withdraw/recipient texts begin `...`" is a prefix (wildcard tail) of the messages of those
 * operations. A text starting with `...` (`... permitido ...`) is a variant of the message just before
 * it: that message's words up to its first parenthesis, then the fragment, anywhere after.
 */
export function contractMessages(markdown: string, serviceName = 'PixGate'): ContractMessage[] {
  const operationPaths = contractOperations(markdown).map((op) => op.path);
  const allLines = markdown.split('\n');
  const messages: ContractMessage[] = [];

  for (const title of ['Errors', 'Limits']) {
    const sectionStart = allLines.findIndex((line) => line.trim() === `## ${title}`);
    if (sectionStart < 0) throw new Error(`The contract has no "## ${title}" section`);
    let status: number | undefined;
    for (let i = sectionStart + 1; i < allLines.length; i++) {
      const line = allLines[i] ?? '';
      if (line.startsWith('## ')) break;
      const heading = /^###\s+(\d{3})\b/.exec(line);
      if (line.startsWith('### ')) {
        status = heading ? Number(heading[1]) : undefined;
        continue;
      }
      const lineStatus = /\b([45]\d\d|202)\b/.exec(stripBackticked(line));
      const effectiveStatus = status ?? (lineStatus ? Number(lineStatus[1]) : undefined);
      const isTableRow = line.trimStart().startsWith('|');
      const contexts = isTableRow ? [line] : clauses(line);
      for (const context of contexts) {
        const endpoints = endpointMentions(stripBackticked(context));
        let previous: string | undefined;
        for (const match of context.matchAll(BACKTICKED)) {
          const text = (match[1] ?? '').trim();
          // Not messages: field names, status values, the `{ error: ... }` body shape.
          if (!/\s/.test(text) || text.startsWith('{')) continue;
          const before = context.slice(0, match.index);
          let pattern: RegExp;
          let ownEndpoints = endpoints;
          const prefixOf = /\(([a-z/]+) texts? begins?\s*$/i.exec(before);
          if (text.startsWith('...') || text.startsWith('…')) {
            if (!previous) throw new Error(`Contract line ${i + 1}: "${text}" has no message before it`);
            const head = (previous.split(' (')[0] ?? previous).trim();
            const core = text.replace(/^(\.\.\.|…)\s*/, '').replace(/\s*(\.\.\.|…)$/, '');
            pattern = new RegExp(`^${messagePattern(head, serviceName).source.slice(1, -1)}.*${escapeRegex(core)}.*$`, 'u');
          } else {
            pattern = messagePattern(text, serviceName);
            if (prefixOf) {
              pattern = new RegExp(`${pattern.source.slice(0, -1)}.*$`, 'u');
              ownEndpoints = pathsForWords((prefixOf[1] ?? '').toLowerCase().split('/'), operationPaths);
            }
          }
          if (!text.startsWith('...')) previous = text;
          const message: ContractMessage = {
            text,
            pattern,
            endpoints: ownEndpoints,
            source: `${title}, contract line ${i + 1}`,
          };
          if (effectiveStatus !== undefined) message.status = effectiveStatus;
          messages.push(message);
        }
      }
    }
  }
  return messages;
}
