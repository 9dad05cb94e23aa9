import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseJsonFeed } from 'feedsmith';
import ICAL from 'ical.js';
import Papa from 'papaparse';
import Parser from 'rss-parser';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, freePort, startServer, type RunningServer } from '../scripts/lib/local-server.ts';
import { launchChromium } from './support/browser.ts';
import { copyProject } from '../scripts/lib/project-copy.ts';
import { projectRoot } from '../scripts/lib/tools.ts';

/**
 * A site built from hostile summaries (tests/fixtures/tricky-events: a script tag, a CDATA end, Markdown
 * link syntax, a spreadsheet formula, CR/LF that tries to add calendar properties) and served in workerd:
 * every output shows them as inert text.
 */

const SCRIPT = "<script>alert('x')</script><img src=x onerror=alert(1)> limits reset";
const CDATA = 'Tricky ]]> end of CDATA and </description> too';
const LINK = '[click me](https://evil.example) **bold** # heading | table';
const FORMULA = '=HYPERLINK("https://evil.example","reset")';
const CRLF = 'First line\r\nDTSTART:19700101T000000Z\r\nX-INJECTED:yes\nlast';

let projectDir: string;
let outDir: string;
let server: RunningServer;
let browser: BrowserContext;
const text = async (route: string) => (await fetch(`${server.baseUrl}${route}`)).text();

beforeAll(async () => {
  // Built in a copy of the project, beside the other tests' Astro runs (scripts/lib/project-copy.ts).
  projectDir = await copyProject('departures-board-tricky-');
  outDir = path.join(projectDir, 'dist');
  const port = await freePort();
  const eventsDir = path.join(projectRoot, 'tests/fixtures/tricky-events');
  await buildSite({ siteUrl: `http://127.0.0.1:${port}`, eventsDir, outDir, projectDir });
  server = await startServer({ port, workerConfig: path.join(outDir, 'server/wrangler.json') });
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(projectDir, { recursive: true, force: true });
});

describe('hostile summaries stay text', () => {
  it.each(['/', '/provider_a', '/provider_b', '/provider_c', '/zh/provider_a'])(
    'in the HTML of %s: nothing runs, the words show',
    async (route) => {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      page.on('dialog', async (dialog) => {
        dialogs.push(dialog.message());
        await dialog.dismiss();
      });
      await page.goto(`${server.baseUrl}${route}`);
      expect(await page.$$eval('script:not([src])', (scripts) => scripts.length)).toBe(0);
      expect(await page.$$eval('img[onerror], ol.events a[href^="https://evil"]', (elements) => elements.length)).toBe(
        0,
      );
      const summaries = await page.$$eval('p.summary', (paragraphs) =>
        paragraphs.map((paragraph) => paragraph.textContent),
      );
      if (route === '/provider_a') expect(summaries).toContain(SCRIPT);
      if (route === '/provider_b') expect(summaries).toContain(LINK);
      expect(dialogs).toEqual([]);
      await page.close();
    },
  );

  it('in RSS and Atom: escaped markup inside well-formed XML', async () => {
    const parser = new Parser();
    for (const feedPath of ['/feed.xml', '/feed.atom', '/feed.xml?provider=provider_a']) {
      const feed = await parser.parseString(await text(feedPath));
      const bodies = feed.items.map((item) => `${item.content ?? ''}`);
      expect(bodies.join('\n')).not.toMatch(/<script|<img/);
      expect(bodies.join('\n')).toContain('&lt;script&gt;');
    }
    const rss = await parser.parseString(await text('/feed.xml'));
    expect(rss.items.some((item) => item.contentSnippet?.includes(CDATA))).toBe(true);
  });

  it('in JSON Feed: text as text, HTML escaped', async () => {
    const feed = parseJsonFeed(await text('/feed.json'));
    expect(feed.items?.map((item) => item.summary)).toContain(SCRIPT);
    expect(feed.items?.map((item) => item.content_html ?? '').join('')).not.toMatch(/<script|<img/);
  });

  it('in Markdown: no link, emphasis or heading comes from the data', async () => {
    const markdown = await text('/index.md');
    expect(markdown).not.toContain('[click me](https://evil.example)');
    expect(markdown).toContain('\\[click me\\]');
    expect(
      markdown
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .every((line) => !line.includes('heading')),
    ).toBe(true);
  });

  it('in iCalendar: line breaks cannot add properties', async () => {
    const calendar = new ICAL.Component(ICAL.parse(await text('/calendar.ics')));
    const events = calendar.getAllSubcomponents('vevent');
    const injected = events.find((event) => String(event.getFirstPropertyValue('uid')).includes('-event-crlf@'))!;
    expect(injected.getAllProperties('dtstart')).toHaveLength(1);
    expect(injected.getFirstProperty('x-injected')).toBeNull();
    expect(String(injected.getFirstPropertyValue('description'))).toContain(CRLF.replace(/\r\n/g, '\n'));
    expect((injected.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(
      '2026-11-07T10:00:00.000Z',
    );
  });

  it('in CSV: a formula is defused, everything else intact', async () => {
    const rows = Papa.parse<Record<string, string>>(await text('/api/timeline.csv'), {
      header: true,
      skipEmptyLines: true,
    }).data;
    const byId = Object.fromEntries(rows.map((row) => [row['id'], row['summary']]));
    expect(byId['formula']).toBe(`'${FORMULA}`);
    expect(byId['xss']).toBe(SCRIPT);
    expect(byId['crlf']).toBe(CRLF);
  });
});
