/**
 * Self-contained HTML documentation pages: the renderer's JavaScript and CSS are inlined from node_modules
 * together with the API document, so a page opened from disk works with no network.
 *
 * - OpenAPI: Redoc 2 (`redoc/bundles/redoc.standalone.js`, global `Redoc.init`).
 * - AsyncAPI: the AsyncAPI React component's standalone bundle (global `AsyncApiStandalone.render`) and its
 *   default stylesheet, with a navigation of our own (the component's sidebar lists schemas, not events,
 *   and hides behind a menu button below 1280 px), a sans-serif font, inline code without the stylesheet's
 *   literal backticks, and the signature verification samples (scripts/lib/webhookSamples.ts).
 */
import { readFileSync } from 'node:fs';
import { isObject } from './json.ts';
import { fromRoot } from './paths.ts';
import { withVerificationSamples } from './webhookSamples.ts';

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

/** AsyncAPI React component configuration: every section, examples expanded; our own navigation instead of its sidebar. */
const ASYNCAPI_CONFIG = {
  show: { sidebar: false, info: true, servers: true, operations: true, messages: true, schemas: true, errors: true },
  expand: { messageExamples: true },
};

const SANS_SERIF = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans', sans-serif";
const MONOSPACE = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace";

/** Layout, font and inline code of the webhooks page, on top of the component's stylesheet. */
const ASYNCAPI_PAGE_CSS = `
body { margin: 0; font-family: ${SANS_SERIF}; color: #1a202c; }
.aui-root, .aui-root .prose { font-family: ${SANS_SERIF}; }
.aui-root .prose code::before, .aui-root .prose code::after { content: none; }
.aui-root .prose :not(pre) > code, .aui-root table code {
  font-family: ${MONOSPACE}; font-size: 0.875em; font-weight: 500; background: #edf2f7; color: #1a202c;
  padding: 0.1em 0.35em; border-radius: 4px; }
.aui-root .prose pre { font-size: 0.8125rem; }
.page-nav { position: fixed; top: 0; left: 0; bottom: 0; width: 17rem; overflow-y: auto; box-sizing: border-box;
  padding: 1.25rem 1rem 2rem; background: #f7fafc; border-right: 1px solid #e2e8f0; font-size: 0.875rem; line-height: 1.4; }
.page-nav h2 { font-size: 1rem; margin: 0 0 0.75rem; }
.page-nav h3 { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: #4a5568; margin: 1.25rem 0 0.4rem; }
.page-nav ul { list-style: none; margin: 0; padding: 0; }
.page-nav li { margin: 0.15rem 0; }
.page-nav a { color: #2b6cb0; text-decoration: none; }
.page-nav a:hover { text-decoration: underline; }
.page-nav code { font-family: ${MONOSPACE}; font-size: 0.8125rem; }
.page-main { margin-left: 17rem; }
@media (max-width: 900px) {
  .page-nav { position: static; width: auto; border-right: 0; border-bottom: 1px solid #e2e8f0; }
  .page-main { margin-left: 0; }
}
`;

/** The id the component gives a `## Heading` of the description (a slug). */
function headingId(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}

interface EventLink {
  event: string;
  title: string;
  schema: string;
}

/** The events of the document (every message of every channel), each with its payload schema's name. */
function eventsOf(asyncApiDocument: unknown): EventLink[] {
  const events: EventLink[] = [];
  const channels = isObject(asyncApiDocument) && isObject(asyncApiDocument['channels']) ? asyncApiDocument['channels'] : {};
  for (const channel of Object.values(channels)) {
    const messages = isObject(channel) && isObject(channel['messages']) ? channel['messages'] : {};
    for (const message of Object.values(messages)) {
      if (!isObject(message) || typeof message['name'] !== 'string') continue;
      const payload = message['payload'];
      const ref = isObject(payload) && typeof payload['$ref'] === 'string' ? payload['$ref'] : '';
      const schema = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
      if (schema === undefined) throw new Error(`AsyncAPI message ${message['name']} has no payload schema reference`);
      events.push({ event: message['name'], title: typeof message['title'] === 'string' ? message['title'] : message['name'], schema });
    }
  }
  return events;
}

/** The page's navigation: the description's sections, the operation, and every event by its name. */
function asyncApiNav(title: string, asyncApiDocument: unknown): string {
  const info = isObject(asyncApiDocument) && isObject(asyncApiDocument['info']) ? asyncApiDocument['info'] : {};
  const description = typeof info['description'] === 'string' ? info['description'] : '';
  const sections = [...description.matchAll(/^## (.+)$/gm)].map((m) => m[1] ?? '');
  const link = (href: string, text: string) => `<li><a href="#${escapeHtml(href)}">${text}</a></li>`;
  const events = eventsOf(asyncApiDocument);
  const groups = [
    { name: 'Charges (transaction.*)', items: events.filter((e) => e.event.startsWith('transaction.')) },
    { name: 'Withdrawals (transfer.*)', items: events.filter((e) => e.event.startsWith('transfer.')) },
    { name: 'Other events', items: events.filter((e) => !/^(transaction|transfer)\./.test(e.event)) },
  ].filter((group) => group.items.length > 0);
  return [
    '<nav class="page-nav" aria-label="Webhooks">',
    `<h2><a href="#introduction">${escapeHtml(title)}</a></h2>`,
    '<h3>Guide</h3>',
    '<ul>',
    ...sections.map((section) => link(headingId(section), escapeHtml(section))),
    '</ul>',
    '<h3>Operation</h3>',
    '<ul>',
    link('operations', 'POST to your webhook URL'),
    '</ul>',
    `<h3>Events (${events.length})</h3>`,
    ...groups.flatMap((group) => [
      `<h3>${escapeHtml(group.name)}</h3>`,
      '<ul class="page-nav-events">',
      ...group.items.map((e) => `<li><a href="#schema-${escapeHtml(e.schema)}" title="${escapeHtml(e.title)}"><code>${escapeHtml(e.event)}</code></a></li>`),
      '</ul>',
    ]),
    '</nav>',
  ].join('\n');
}

/**
 * The component's HTML sanitiser (DOMPurify) drops a heading id that names a `document` property, so
 * `## Body` renders without its `body` id: a navigation link whose target is missing scrolls to the
 * heading of the same slug instead.
 */
const NAV_FALLBACK = `document.querySelector('.page-nav').addEventListener('click', function (event) {
  var link = event.target.closest('a[href^="#"]');
  if (!link) return;
  var id = link.getAttribute('href').slice(1);
  if (document.getElementById(id)) return;
  var slug = function (text) { return text.toLowerCase().replace(/[^a-z0-9\\s-]/g, '').trim().replace(/\\s+/g, '-'); };
  var heading = Array.prototype.find.call(document.querySelectorAll('.aui-root h2, .aui-root h3'), function (h) { return slug(h.textContent) === id; });
  if (heading) { event.preventDefault(); heading.scrollIntoView(); history.replaceState(null, '', '#' + id); }
});`;

export function asyncApiPage(title: string, asyncApiDocument: unknown): string {
  const shown = withVerificationSamples(asyncApiDocument);
  return page(
    title,
    [
      `<style>\n${readFileSync(ASYNCAPI_CSS, 'utf8').replace(/<\/(style)/gi, '<\\/$1')}\n</style>`,
      `<style>${ASYNCAPI_PAGE_CSS}</style>`,
    ].join('\n'),
    [
      asyncApiNav(title, shown),
      '<main class="page-main"><div id="asyncapi"></div></main>',
      `<script>\n${inlineScript(readFileSync(ASYNCAPI_BUNDLE, 'utf8'))}\n</script>`,
      '<script>',
      `AsyncApiStandalone.render({ schema: ${inlineJson(shown)}, config: ${inlineJson(ASYNCAPI_CONFIG)} }, document.getElementById('asyncapi'));`,
      NAV_FALLBACK,
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
