import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_LANGUAGES } from '../../scripts/lib/codeSamples.ts';
import { GENERATED_DIR } from '../../scripts/lib/paths.ts';
import { VERIFICATION_LANGUAGES, WEBHOOK_TEST_VECTOR } from '../../scripts/lib/webhookSamples.ts';
import { launchChromium, screen, screenOf } from './support.ts';

/**
 * The generated merchant docs, opened from disk in Chromium with every network request refused: the
 * webhooks page (sans-serif, inline code without literal backticks, a navigation with the 21 events whose
 * links all land, the verification samples) and the API reference showing the code samples.
 */
let browser: Browser;
const blocked: string[] = [];
const pageErrors: string[] = [];

/** Runs browser code in the page (written as text: the tests compile without the DOM library). */
function inPage<T = unknown>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

async function open(file: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  page.on('pageerror', (error) => pageErrors.push(`${file}: ${error.message}`));
  await page.goto(pathToFileURL(`${GENERATED_DIR}/docs/${file}`).href);
  return page;
}

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('generated/docs/webhooks.html', () => {
  let page: Page;
  beforeAll(async () => {
    page = await open('webhooks.html');
    await page.waitForSelector('#schema-TransferPartiallyRefunded');
  });

  it('reads in a sans-serif font, with inline code as code and no literal backticks', async () => {
    const style = await inPage<{ paragraph: string; code: string; before: string; after: string; text: string }>(
      page,
      `(() => {
        const paragraph = document.querySelector('.aui-root .prose p');
        const code = document.querySelector('.aui-root .prose p code');
        return {
          paragraph: getComputedStyle(paragraph).fontFamily,
          code: getComputedStyle(code).fontFamily,
          before: getComputedStyle(code, '::before').content,
          after: getComputedStyle(code, '::after').content,
          text: document.querySelector('.aui-root').innerText,
        };
      })()`,
    );
    expect(style.paragraph).toMatch(/sans-serif$/);
    expect(style.paragraph).not.toMatch(/Times/);
    expect(style.code).toMatch(/monospace$/);
    expect([style.before, style.after]).toEqual(['none', 'none']);
    expect(style.text).not.toContain('`');
    await screen(page, 'docs-webhooks');
  });

  it('has a navigation listing the 28 events (the contract\'s 21 and the 7 recurrence.* since 2026-11-30), and every link lands on its section', async () => {
    const events = await page.locator('.page-nav-events code').allInnerTexts();
    expect(events).toHaveLength(28);
    expect(events).toContain('recurrence.cycle_refused');
    expect(events).toContain('transaction.paid');
    expect(events).toContain('transfer.partially_refunded');
    const hrefs = await page.locator('.page-nav a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(30);
    for (const href of hrefs) {
      await inPage(page, 'window.scrollTo(0, 0)');
      await page.click(`.page-nav a[href="${href}"]`);
      // The target is the element with the id, or (ids the sanitiser drops) the heading of that slug; it is
      // at the top of the viewport, or the page is scrolled to its end (the last sections cannot reach the top).
      const landed = await inPage<boolean>(
        page,
        `(() => {
          const id = ${JSON.stringify(href.slice(1))};
          const slug = (text) => text.toLowerCase().replace(/[^a-z0-9\\s-]/g, '').trim().replace(/\\s+/g, '-');
          const target = document.getElementById(id) ?? [...document.querySelectorAll('.aui-root h2')].find((h) => slug(h.textContent) === id);
          if (!target) return false;
          const atEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
          const top = target.getBoundingClientRect().top;
          return Math.abs(top) < 5 || (atEnd && top < window.innerHeight);
        })()`,
      );
      expect(landed, href).toBe(true);
    }
  });

  it('shows signature verification in each language with the documented test vector', async () => {
    const section = await inPage<string>(
      page,
      `(() => {
        const parts = [];
        for (let node = document.getElementById('verifying-signatures-code')?.nextElementSibling; node && node.tagName !== 'H2'; node = node.nextElementSibling) parts.push(node.innerText);
        return parts.join('\\n');
      })()`,
    );
    for (const language of VERIFICATION_LANGUAGES) expect(section).toContain(language);
    for (const library of ['npm install standardwebhooks', 'pip install standardwebhooks', 'standard-webhooks/standard-webhooks', 'com.standardwebhooks']) {
      expect(section).toContain(library);
    }
    expect(section.split(WEBHOOK_TEST_VECTOR.signature)).toHaveLength(VERIFICATION_LANGUAGES.length + 1);
    expect(section.split(WEBHOOK_TEST_VECTOR.secret)).toHaveLength(VERIFICATION_LANGUAGES.length + 1);
  });
});

describe('generated/docs/api.html', () => {
  it('shows the code samples of an operation in five languages', async () => {
    const page = await open('api.html');
    const operation = page.locator('[id="operation/createCharge"]');
    await operation.waitFor();
    const tabs = await operation.locator('[role="tab"]').allInnerTexts();
    for (const label of ['curl', 'TypeScript (pixgate/client)', 'Python (requests)', 'PHP (Guzzle)', 'Java (java.net.http)']) expect(tabs).toContain(label);
    expect(tabs.length).toBeGreaterThanOrEqual(SAMPLE_LANGUAGES.length);
    await operation.locator('[role="tab"]', { hasText: 'TypeScript (pixgate/client)' }).click();
    await expect.poll(() => operation.innerText()).toContain("pixgate.POST('/v1/pix'");
    await screenOf(operation, 'docs-api-code-samples');
  });
});

describe('offline', () => {
  it('made no network request and raised no script error', () => {
    expect(blocked).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
