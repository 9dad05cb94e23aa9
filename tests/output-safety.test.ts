import { cp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseXml, XmlElement, type XmlNode } from '@rgrove/parse-xml';
import { escapeUTF8 as escapeHtml } from 'entities';
import { parseJsonFeed } from 'feedsmith';
import ICAL from 'ical.js';
import Papa from 'papaparse';
import Parser from 'rss-parser';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, reservePort, startServer, type RunningServer } from '../scripts/lib/local-server.ts';
import { launchChromium } from './support/browser.ts';
import { copyProject } from '../scripts/lib/project-copy.ts';
import { projectRoot } from '../scripts/lib/tools.ts';
import { HOSTILE_ACCOUNT, HOSTILE_SOURCE_URL, hostileEvents } from '../src/core/render/hostile-events.ts';
import { PROVIDERS } from '../src/core/vocabulary.ts';
import { writeEventTree } from './support/event-trees.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * A site built from hostile summaries (tests/fixtures/tricky-events: a script tag, a CDATA end, Markdown
 * link syntax, a spreadsheet formula, CR/LF that tries to add calendar properties; and the hostile but valid
 * events of src/core/render/hostile-events.ts: formulas on every line, markup and entity look-alikes, astral and
 * right-to-left text, the longest summary, an account and a URL full of markup) and served in workerd: every
 * output shows them as inert text, every XML output parses in a strict XML parser and no line of a CSV cell
 * starts a formula (decisions.md, "One honest answer").
 */

const SCRIPT = "<script>alert('x')</script><img src=x onerror=alert(1)> limits reset";
const CDATA = 'Tricky ]]> end of CDATA and </description> too';
const LINK = '[click me](https://evil.example) **bold** # heading | table';
const FORMULA = '=HYPERLINK("https://evil.example","reset")';
const CRLF = 'First line\r\nDTSTART:19700101T000000Z\r\nX-INJECTED:yes\nlast';

let projectDir: string;
let eventsDir: string;
let outDir: string;
let server: RunningServer;
let browser: BrowserContext;
const text = async (route: string) => (await fetch(`${server.baseUrl}${route}`)).text();

beforeAll(async () => {
  // Built in a copy of the project, beside the other tests' Astro runs (scripts/lib/project-copy.ts).
  projectDir = await copyProject('departures-board-tricky-');
  outDir = path.join(projectDir, 'dist');
  // Held through the build, whose site address names it, until the server binds it.
  const { port, release: releasePort } = await reservePort();
  eventsDir = await writeEventTree(
    Object.fromEntries(
      hostileEvents().map((event) => [`${event.provider}/${event.id}.json`, `${JSON.stringify(event, null, 2)}\n`]),
    ),
  );
  await cp(path.join(projectRoot, 'tests/fixtures/tricky-events'), eventsDir, { recursive: true });
  try {
    await buildSite({ siteUrl: `http://127.0.0.1:${port}`, eventsDir, outDir, projectDir });
  } catch (error) {
    await releasePort();
    throw error;
  }
  server = await startServer({
    port: { port, release: releasePort },
    workerConfig: path.join(outDir, 'server/wrangler.json'),
  });
  browser = await launchChromium();
}, scaled(300_000));
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(projectDir, { recursive: true, force: true });
  if (eventsDir !== undefined) await rm(path.dirname(eventsDir), { recursive: true, force: true });
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

/** The elements named `name` at any depth under `node`. */
const elements = (node: XmlNode, name: string): XmlElement[] =>
  node instanceof XmlElement
    ? [...(node.name === name ? [node] : []), ...node.children.flatMap((child) => elements(child, name))]
    : 'children' in node
      ? (node.children as XmlNode[]).flatMap((child) => elements(child, name))
      : [];

describe('every XML output in a strict XML parser', () => {
  const FEED_ROUTES = [
    '/feed.xml',
    '/feed.atom',
    ...PROVIDERS.flatMap((provider) => [`/feed.xml?provider=${provider}`, `/feed.atom?provider=${provider}`]),
    '/api/feed?provider=provider_a',
  ];

  // @rgrove/parse-xml refuses what XML 1.0 forbids (a control character, U+FFFE, U+FFFF, a lone surrogate, a
  // reference to one, an undeclared entity) instead of reading past it, as feed readers that are XML parsers do.
  it.each([...FEED_ROUTES, '/sitemap.xml'])('%s', async (route) => {
    const response = await fetch(`${server.baseUrl}${route}`);
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(() => parseXml(xml)).not.toThrow();
  });

  it('and the built feed files the WebSub hub sends to subscribers, byte for byte', async () => {
    // The hub POSTs a topic's built file as ASSETS holds it (src/server/delivery/channels/websub/index.ts).
    const client = path.join(outDir, 'client');
    const files = [
      'feed.xml',
      'feed.atom',
      ...(await readdir(path.join(client, 'data/feeds')))
        .filter((name) => /\.(xml|atom)$/.test(name))
        .map((name) => `data/feeds/${name}`),
    ];
    expect(files).toHaveLength(2 + 2 * PROVIDERS.length);
    for (const file of files) {
      const xml = await readFile(path.join(client, file), 'utf8');
      expect(() => parseXml(xml), file).not.toThrow();
    }
  });

  it('the hostile events arrive whole, as text: every summary, the account and the URL', async () => {
    const items = elements(parseXml(await text('/feed.xml')), 'item');
    const descriptions = items.flatMap((item) => elements(item, 'description')).map((element) => element.text);
    for (const event of hostileEvents()) {
      // An XML parser reads CRLF and a lone CR as LF (XML 1.0, 2.11).
      const summary = escapeHtml(event.summary.replace(/\r\n?/g, '\n'));
      expect(
        descriptions.some((description) => description.includes(`<p>${summary}</p>`)),
        event.id,
      ).toBe(true);
    }
    const sources = items.flatMap((item) => elements(item, 'source'));
    expect(sources.map((source) => source.attributes['url'])).toContain(HOSTILE_SOURCE_URL);
    expect(sources.map((source) => source.text.trim())).toContain(HOSTILE_ACCOUNT);
  });
});

describe('every CSV in papaparse', () => {
  it.each([
    '/api/timeline.csv',
    ...PROVIDERS.map((provider) => `/api/timeline.csv?provider=${provider}`),
    '/api/timeline?format=csv&limit=100',
  ])('%s: no line of any cell starts a formula', async (route) => {
    const response = await fetch(`${server.baseUrl}${route}`);
    expect(response.status).toBe(200);
    const parsed = Papa.parse<string[]>(await response.text(), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const cells = parsed.data.flat();
    expect(cells.filter((cell) => cell.startsWith('\r'))).toEqual([]);
    const lines = cells.flatMap((cell) => cell.split(/\r\n|\r|\n/));
    expect(lines.filter((line) => /^[=+\-@\t]/.test(line))).toEqual([]);
  });

  it('defuses a formula on the second line, and every line of a summary made of them', async () => {
    const rows = Papa.parse<Record<string, string>>(await text('/api/timeline.csv'), {
      header: true,
      skipEmptyLines: true,
    }).data;
    const byId = Object.fromEntries(rows.map((row) => [row['id'], row['summary']]));
    expect(byId['hostile-formulaSecondLine']).toBe(
      'Limits reset for everyone.\n\'=HYPERLINK("https://evil.example","details")',
    );
    expect(byId['hostile-formulaEveryLine']).toBe(
      "'=1+1\n'+SUM(A1)\r\n'-2\r'@cmd\n\r'=after a CR\r\n\r\n'=after a blank line",
    );
  });
});
