/**
 * Self-contained HTML documentation pages: the renderer's JavaScript and CSS are inlined from node_modules
 * together with the API document, so a page opened from disk works with no network.
 *
 * - OpenAPI: Redoc 2 (`redoc/bundles/redoc.standalone.js`, global `Redoc.init`).
 * - AsyncAPI: the AsyncAPI React component's standalone bundle (global `AsyncApiStandalone.render`) and its
 *   default stylesheet.
 */
import { readFileSync } from 'node:fs';
import { fromRoot } from './paths.ts';

const REDOC_BUNDLE = fromRoot('node_modules', 'redoc', 'bundles', 'redoc.standalone.js');
const ASYNCAPI_BUNDLE = fromRoot('node_modules', '@asyncapi', 'react-component', 'browser', 'standalone', 'index.js');
const ASYNCAPI_CSS = fromRoot('node_modules', '@asyncapi', 'react-component', 'styles', 'default.min.css');

/**
 * Redoc 2's sidebar footer loads its logo from a CDN (`onError` hides it when offline). The page must make
 * no remote request, so the URL is replaced by an empty inline SVG. If a Redoc upgrade drops or moves the
 * URL, generation fails here so the replacement is revisited.
 */
const REDOC_REMOTE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

function readRedocBundle(): string {
  const source = readFileSync(REDOC_BUNDLE, 'utf8');
  if (!source.includes(REDOC_REMOTE_LOGO)) {
    throw new Error(`${REDOC_BUNDLE} no longer references ${REDOC_REMOTE_LOGO}: review scripts/lib/docs.ts`);
  }
  return source.split(REDOC_REMOTE_LOGO).join(EMPTY_SVG);
}

/** Script text safe inside `<script>`: `</script` cannot close the element early. */
function inlineScript(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}

/** JSON as a JavaScript expression safe inside `<script>` (no `<`, no line separators). */
function inlineJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function page(title: string, head: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    head,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Redoc options: see https://redocly.com/docs/redoc/config (Redoc 2). */
const REDOC_OPTIONS = {
  expandResponses: '200,201,202',
  requiredPropsFirst: true,
  jsonSampleExpandLevel: 4,
  pathInMiddlePanel: true,
  showObjectSchemaExamples: true,
  hideDownloadButton: false,
};

/**
 * Redoc 2 lists an operation's responses with `Object.keys`, and JavaScript orders integer-like keys
 * numerically, so a POST that documents the 200 idempotent replay shows it before its 201, and the response
 * samples open on the 200 whatever the document's order. Once Redoc has rendered, this selects the `201`
 * tab of every response-samples tab list that has one, so the reference opens on the created answer.
 */
const OPEN_ON_CREATED = `function () {
  document.querySelectorAll('[role="tablist"]').forEach(function (list) {
    var tabs = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
    var created = tabs.filter(function (tab) { return tab.textContent.trim() === '201'; })[0];
    if (created && tabs[0] !== created && tabs[0].textContent.trim() === '200') created.click();
  });
}`;

export function redocPage(title: string, openApiDocument: unknown): string {
  return page(
    title,
    '<style>body { margin: 0; padding: 0; }</style>',
    [
      '<div id="redoc"></div>',
      `<script>\n${inlineScript(readRedocBundle())}\n</script>`,
      '<script>',
      `Redoc.init(${inlineJson(openApiDocument)}, ${inlineJson(REDOC_OPTIONS)}, document.getElementById('redoc'), ${OPEN_ON_CREATED});`,
      '</script>',
    ].join('\n'),
  );
}

/** AsyncAPI React component configuration: sidebar, every section, examples expanded. */
const ASYNCAPI_CONFIG = {
  show: { sidebar: true, info: true, servers: true, operations: true, messages: true, schemas: true, errors: true },
  expand: { messageExamples: true },
  sidebar: { showServers: 'byDefault', showOperations: 'byDefault' },
};

export function asyncApiPage(title: string, asyncApiDocument: unknown): string {
  return page(
    title,
    `<style>\n${readFileSync(ASYNCAPI_CSS, 'utf8').replace(/<\/(style)/gi, '<\\/$1')}\n</style>`,
    [
      '<div id="asyncapi"></div>',
      `<script>\n${inlineScript(readFileSync(ASYNCAPI_BUNDLE, 'utf8'))}\n</script>`,
      '<script>',
      `AsyncApiStandalone.render({ schema: ${inlineJson(asyncApiDocument)}, config: ${inlineJson(ASYNCAPI_CONFIG)} }, document.getElementById('asyncapi'));`,
      '</script>',
    ].join('\n'),
  );
}

export interface IndexEntry {
  href: string;
  title: string;
  description: string;
}

export function indexPage(title: string, entries: IndexEntry[], notes: string[]): string {
  const items = entries
    .map((e) => `<li><a href="${escapeHtml(e.href)}">${escapeHtml(e.title)}</a> - ${escapeHtml(e.description)}</li>`)
    .join('\n');
  const noteItems = notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n');
  return page(
    title,
    '<style>body { font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; } .note { color: #555; }</style>',
    `<h1>${escapeHtml(title)}</h1>\n<ul>\n${items}\n</ul>\n${noteItems}`,
  );
}

/** Hosts that only serve assets for pages (fonts, CDN bundles): any mention means a remote dependency. */
const CDN_HOSTS = [
  'fonts.googleapis.com',
  'fonts.gstatic.com',
  'cdn.redoc.ly',
  'cdn.redocly.com',
  'unpkg.com',
  'cdn.jsdelivr.net',
  'cdnjs.cloudflare.com',
];

/**
 * Remote resources a page would load: `src`/`href` of script, link, img, iframe, source, object and embed
 * elements in the markup, `url(...)`/`@import` in styles, `src: "http..."` in inlined scripts (elements
 * created at run time), and any mention of a CDN host. Plain navigation links (`<a href>`) are fine.
 */
export function remoteResources(html: string): string[] {
  const problems: string[] = [];
  const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, (tag) => tag.replace(/>[\s\S]*<\/script>$/i, '></script>'));
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1] ?? '');
  const markupOnly = markup.replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, '<style></style>');
  for (const tag of markupOnly.matchAll(/<(script|link|img|iframe|source|object|embed|video|audio)\b[^>]*>/gi)) {
    const remote = /\b(?:src|href|data|srcset)\s*=\s*["']?\s*((?:https?:)?\/\/[^"'\s>]+)/i.exec(tag[0]);
    if (remote) problems.push(`<${tag[1]}> loads ${remote[1]}`);
  }
  for (const css of [...styles, ...[...markupOnly.matchAll(/\bstyle\s*=\s*"([^"]*)"/gi)].map((m) => m[1] ?? '')]) {
    for (const url of css.matchAll(/url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi)) problems.push(`CSS url(${url[1]})`);
    for (const imp of css.matchAll(/@import\s+[^;]+;/gi)) problems.push(`CSS ${imp[0]}`);
  }
  for (const src of html.matchAll(/\bsrc\s*:\s*["'`](https?:\/\/[^"'`]+)/g)) problems.push(`script sets src ${src[1]}`);
  for (const host of CDN_HOSTS) if (html.includes(host)) problems.push(`mentions CDN host ${host}`);
  return [...new Set(problems)];
}
