import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../../src/http/inlineScripts.ts';

/** The inline scripts of a page, as the docs' Content-Security-Policy names them (src/http/inlineScripts.ts). */
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inline scripts of an HTML page', () => {
  it('are found as a browser finds them: not in comments, raw text or attributes, and through <!-- inside a script', () => {
    expect(inlineScriptHashes('<p>a</p><script>one()</script>')).toEqual([hash('one()')]);
    expect(inlineScriptHashes('<!-- <script>no()</script> --><script>yes()</script>')).toEqual([hash('yes()')]);
    expect(inlineScriptHashes('<title><script>no()</script></title><script src="x.js"></script>')).toEqual([]);
    expect(inlineScriptHashes('<p title="<script>no()</script>">x</p>')).toEqual([]);
    expect(inlineScriptHashes('<script>s = "<script><\\/script>"; r = /<!--(?!x)-->/;</script>')).toEqual([hash('s = "<script><\\/script>"; r = /<!--(?!x)-->/;')]);
    // In the double-escaped state `</script>` does not end the element.
    expect(inlineScriptHashes('<script><!--<script>a</script>b--></script>')).toEqual([hash('<!--<script>a</script>b-->')]);
  });

  it('are hashed with line breaks normalised to LF, and a script never closed runs to the end', () => {
    expect(inlineScriptHashes('<script>\r\nx()\r\n</script>')).toEqual([hash('\nx()\n')]);
    expect(inlineScriptHashes('<script>x()')).toEqual([hash('x()')]);
    expect(inlineScriptHashes('<script x="')).toEqual([]);
  });
});
