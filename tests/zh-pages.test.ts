import { type DefaultTreeAdapterTypes, parse } from 'parse5';
import type { BrowserContext } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './support/browser.ts';

/**
 * The Chinese pages as a reader gets them (docs/website.md, "Chinese style"; docs/glossary/zh.md): the served
 * build's HTML and Markdown with code, URLs, numbers and the English summaries taken out, so that no ASCII
 * punctuation is left beside a Chinese character; every time written `2026年12月3日 14:03（UTC）` by the server and
 * `…（GMT+8）` once the page's script has run in a GMT+8 browser. The rules are written here by hand, as in
 * src/core/i18n/zh-punctuation.test.ts, which checks the words themselves.
 */

const baseUrl = inject('baseUrl');

const HAN = String.raw`\p{Script=Han}`;
const FULL_WIDTH = '，。：；！？（）“”、';
const RULES: [string, RegExp][] = [
  ['no ASCII , : ; ( ) ? ! next to a Chinese character', new RegExp(`${HAN} *[,:;()?!]|[,:;()?!] *${HAN}`, 'u')],
  ['no ASCII full stop beside a Chinese character', new RegExp(`${HAN} *\\.(?![\\w/])|\\.(?= *${HAN})`, 'u')],
  ['no space beside full-width punctuation', new RegExp(` [${FULL_WIDTH}]|[${FULL_WIDTH}] (?!· )`, 'u')],
  [
    'a time names its zone in parentheses right after it, never between date and time',
    /(?:UTC|GMT)(?:[+-]\d{1,2}(?::\d{2})?)? +\d{1,2}:\d{2}|\d{1,2}:\d{2} *(?:UTC|GMT)|日 *(?:UTC|GMT)/u,
  ],
];

const PAGES = [
  '/zh',
  '/zh/provider_a',
  '/zh/provider_b',
  '/zh/provider_c',
  '/zh/about',
  '/zh/api',
  '/zh/tracker',
  '/zh/tracker?provider=provider_b&reset=2026-11-21T18%3A30&weekly=2026-11-23T09%3A00&tz=Asia%2FShanghai&locale=zh',
];

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document;
type Element = DefaultTreeAdapterTypes.Element;
const isElement = (node: Node): node is Element => 'tagName' in node;
const attribute = (element: Element, name: string) => element.attrs.find((attr) => attr.name === name)?.value;

/** Code and machine text keep their ASCII: left out. */
const SKIPPED = new Set(['script', 'style', 'code', 'pre', 'kbd', 'samp', 'template']);
/** Elements that end a run of text; the others (a, span, strong, time, …) are read as part of their sentence. */
const BLOCKS = new Set(
  (
    'html head body title meta link p li ul ol dl dt dd div section article aside header footer nav main h1 h2 h3 h4 ' +
    'h5 h6 table caption thead tbody tfoot tr th td figure figcaption details summary form fieldset legend label ' +
    'select option button textarea input br hr blockquote svg g text desc'
  ).split(' '),
);
/** Attributes a reader meets (tooltips, alternative text, the description a search engine shows). */
const READ_ATTRIBUTES = ['title', 'alt', 'aria-label', 'placeholder', 'content'];

/** A page's text as lines a reader reads, without code, English summaries, URLs and decimal numbers. */
function readerLines(html: string): string[] {
  let text = '';
  const walk = (node: Node, root = false) => {
    if (node.nodeName === '#text' && 'value' in node) {
      text += node.value;
      return;
    }
    if (!isElement(node)) {
      if ('childNodes' in node) for (const child of node.childNodes) walk(child);
      return;
    }
    if (SKIPPED.has(node.tagName)) return;
    // An English text inside a Chinese page (an event's summary, the language switch) stays as written.
    if (!root && attribute(node, 'lang')?.startsWith('en')) return;
    const block = BLOCKS.has(node.tagName);
    if (block) text += '\n';
    for (const name of READ_ATTRIBUTES) {
      const value = attribute(node, name);
      if (
        value !== undefined &&
        !(node.tagName === 'meta' && name === 'content' && attribute(node, 'name') !== 'description')
      )
        text += `\n${value}\n`;
    }
    const children = node.tagName === 'template' ? [] : node.childNodes;
    for (const child of children) walk(child, false);
    if (block) text += '\n';
  };
  walk(parse(html), true);
  return cleaned(text.split('\n'));
}

/** The Markdown mirror as lines, without code spans, link targets and the English summaries of the events. */
const markdownLines = (markdown: string): string[] =>
  cleaned(
    markdown.split('\n').map((line) =>
      line
        .replace(/(· `[a-z_:]+`：).*?（\[/u, '$1摘要（[')
        .replace(/`[^`]*`/gu, 'CODE')
        .replace(/\]\(<[^>]*>\)/gu, ']'),
    ),
  );

function cleaned(lines: string[]): string[] {
  return lines
    .map((line) =>
      line
        .replace(/https?:\/\/\S+/gu, 'URL')
        .replace(/(^|[\s：（])\/[\w./?=&%#{}-]*/gu, '$1PATH')
        .replace(/\d+(?:\.\d+)+/gu, '0')
        .replace(/[ \t\u00a0]+/gu, ' ')
        .trim(),
    )
    .filter((line) => new RegExp(HAN, 'u').test(line));
}

const pad = (value: number) => String(value).padStart(2, '0');
/** `2026年12月3日 22:03（GMT+8）`, by the test's own hand: the instant moved by whole hours, the zone as given. */
const chineseAt = (iso: string, offsetHours: number, zone: string) => {
  const time = new Date(Date.parse(iso) + offsetHours * 3_600_000);
  return `${time.getUTCFullYear()}年${time.getUTCMonth() + 1}月${time.getUTCDate()}日 ${pad(time.getUTCHours())}:${pad(time.getUTCMinutes())}（${zone}）`;
};

/** Every `<time datetime data-local>` of a page: its instant and its text. */
const timesOf = (html: string) =>
  [...html.matchAll(/<time datetime="([^"]+)" data-local[^>]*>([^<]*)<\/time>/gu)].map(([, iso, text]) => ({
    iso: iso!,
    text: text!,
  }));

describe('the Chinese pages as served', () => {
  it.each(PAGES)('%s: full-width punctuation in Chinese sentences, times with their zone after them', async (path) => {
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status).toBe(200);
    const lines = readerLines(await response.text());
    expect(lines.length).toBeGreaterThan(10);
    for (const [rule, pattern] of RULES)
      expect(
        lines.filter((line) => pattern.test(line)),
        rule,
      ).toEqual([]);
  });

  it('/zh/index.md: the same rules over the Markdown mirror', async () => {
    const lines = markdownLines(await (await fetch(`${baseUrl}/zh/index.md`)).text());
    expect(lines.length).toBeGreaterThan(20);
    for (const [rule, pattern] of RULES)
      expect(
        lines.filter((line) => pattern.test(line)),
        rule,
      ).toEqual([]);
  });

  it('the rules can fail: the reader’s text of a page with the reported mistakes breaks them', () => {
    const lines = readerLines(
      '<p>计算于 <time>2026-11-27 17:41 UTC</time>. 状态</p><p><a href="/zh/provider_a">供应商 A</a>: 根据</p><p>2026年12月3日 GMT+8 22:03</p><p>尚未检查来源。 各来源</p>',
    );
    expect(RULES.map(([, pattern]) => lines.filter((line) => pattern.test(line)).length)).toEqual([1, 1, 1, 2]);
  });

  it('the server writes every time of a Chinese page in Chinese, in UTC; the English pages keep theirs', async () => {
    for (const path of ['/zh', '/zh/provider_a']) {
      const times = timesOf(await (await fetch(`${baseUrl}${path}`)).text());
      expect(times.length, path).toBeGreaterThan(3);
      for (const { iso, text } of times) expect(text).toBe(chineseAt(iso, 0, 'UTC'));
    }
    const english = timesOf(await (await fetch(`${baseUrl}/`)).text());
    expect(english.length).toBeGreaterThan(3);
    for (const { iso, text } of english)
      expect(text).toBe(`${iso.slice(0, 10)} ${new Date(iso).toISOString().slice(11, 16)} UTC`);
  });
});

describe('the Chinese pages in a browser in GMT+8', () => {
  let browser: BrowserContext | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('/zh: each time reads …年…月…日 HH:MM（GMT+8） once the script has run, with the UTC form on hover', async () => {
    browser = await launchChromium({ timezoneId: 'Asia/Shanghai', locale: 'zh-CN' });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/zh`);
    const first = page.locator('time[data-local]').first();
    await expect.poll(() => first.textContent()).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}（GMT\+8）$/u);
    const times = await page.$$eval('time[data-local]', (elements) =>
      elements.map((element) => ({
        iso: (element as HTMLTimeElement).dateTime,
        text: element.textContent ?? '',
        title: (element as HTMLElement).title,
      })),
    );
    expect(times.length).toBeGreaterThan(3);
    for (const { iso, text, title } of times) {
      expect(text).toBe(chineseAt(iso, 8, 'GMT+8'));
      expect(title).toBe(chineseAt(iso, 0, 'UTC'));
    }
  });
});
