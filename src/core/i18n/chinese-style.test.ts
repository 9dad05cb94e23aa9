import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveBoard } from '../board.ts';
import { compareNewestFirst } from '../ordering.ts';
import { renderBoardMarkdown } from '../render/markdown.ts';
import { resetsWithGaps } from '../test-events.ts';

/**
 * The house's Chinese style (docs/website.md "Chinese style"), as rules written here, checked over every Chinese
 * string the source holds and over a rendered Chinese Markdown mirror (which also carries the MCP resource's words).
 */

const HAN = '\\p{Script=Han}';
const RULES: { name: string; pattern: RegExp }[] = [
  { name: 'ASCII punctuation beside a Chinese character', pattern: new RegExp(`${HAN}[,:;!?()]|[,:;!?(]${HAN}`, 'u') },
  { name: 'corner brackets (the house quotes with “”)', pattern: /[「」『』]/u },
  { name: 'straight quotes around Chinese', pattern: new RegExp(`["'](?=${HAN})|(?<=${HAN})["']`, 'u') },
  // Dates are the one exception: digits touch 年, 月 and 日 (2026年6月12日).
  {
    name: 'no space between Chinese and Latin letters or digits',
    pattern: new RegExp(
      `(?<![年月日])${HAN}(?<![年月日])[A-Za-z0-9]|[A-Za-z](?=${HAN})|[0-9](?=${HAN})(?![年月日])`,
      'u',
    ),
  },
  { name: 'a space beside full-width punctuation', pattern: / [，。：；！？）]|[（，。：；！？] /u },
];

/** The Chinese literals of a source file, with each `${…}` cut out: text on either side of one is checked apart. */
function chineseLiterals(file: string): string[] {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  const literals = source.match(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g) ?? [];
  return literals
    .flatMap((literal) => literal.slice(1, -1).split(/\$\{[^}]*\}/))
    .filter((text) => new RegExp(HAN, 'u').test(text));
}

const breaches = (texts: string[]) =>
  texts.flatMap((text) => RULES.filter((rule) => rule.pattern.test(text)).map((rule) => `${rule.name}: ${text}`));

describe('Chinese style', () => {
  it('the rules catch what they are meant to catch', () => {
    expect(breaches(['看板状态(JSON)', '示例数据:虚构', '共3次', '检查于 4 分钟前 。', '「随时」'])).toHaveLength(5);
    expect(
      breaches(['看板状态（JSON）', '2026年6月12日', '检查于 4 分钟前。', '“随时可能”', 'RSS 2.0 订阅源']),
    ).toEqual([]);
  });

  it.each(['./zh.ts', './forecast-page.ts', './format.ts', '../render/relative-time.ts'])(
    'every Chinese string in %s follows it',
    (file) => {
      expect(breaches(chineseLiterals(file))).toEqual([]);
    },
  );

  it('the rendered Chinese Markdown mirror follows it, line by line', () => {
    const events = resetsWithGaps([10, 12], 3).sort(compareNewestFirst);
    const markdown = renderBoardMarkdown({
      board: deriveBoard(events, new Date('2026-06-15T12:00:00Z')),
      events,
      baseUrl: 'https://board.example',
      locale: 'zh',
      sampleData: true,
    });
    const chineseLines = markdown.split('\n').filter((line) => new RegExp(HAN, 'u').test(line));
    expect(chineseLines.length).toBeGreaterThan(5);
    expect(breaches(chineseLines)).toEqual([]);
  });
});
