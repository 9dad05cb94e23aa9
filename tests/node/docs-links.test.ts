import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README a newcomer reads in five minutes (issue 36): at most 150 lines, and every link in it and in the other
 * Markdown of the repository (CONTRIBUTING.md, SECURITY.md, docs/*.md) resolves inside a clone: a relative link
 * names a file or folder that exists within the repository, and its `#anchor`, if any, a heading of that file as
 * GitHub slugs it. A link outside the clone (`../shared/…`) is what this refuses.
 */

const README_MAX_LINES = 150;
const MARKDOWN_FILES = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks and inline code, where a `[text](target)` is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of inline links and images (`[text](target)`, `![alt](target "title")`). */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] as string,
  );
}

/** GitHub's anchor of a heading: formatting dropped, lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*~]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a Markdown file: its headings' slugs, numbered as GitHub numbers repeats. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

const root = path.resolve('.');

/** What is wrong with one link of `file`, or null when it resolves inside the repository. */
function problem(file: string, target: string): string | null {
  if (/^(https?:|mailto:)/.test(target)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return `${target}: not a link into the repository`;
  const [pathPart = '', anchor] = target.split('#', 2);
  const resolved = pathPart === '' ? path.resolve(file) : path.resolve(path.dirname(file), decodeURI(pathPart));
  if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) return `${target}: outside the repository`;
  if (!existsSync(resolved)) return `${target}: no such file`;
  if (anchor === undefined || anchor === '') return null;
  if (!statSync(resolved).isFile() || !resolved.endsWith('.md')) return null;
  return anchors(readFileSync(resolved, 'utf8')).has(anchor.toLowerCase()) ? null : `${target}: no such heading`;
}

describe('the README and the docs', () => {
  it(`the README is at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync('README.md', 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('the README names no file outside the repository, and shows npm run demo on its first screen', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).not.toMatch(/\.\.\/shared\//);
    const firstScreen = readme.split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toContain('npm run demo');
    expect(firstScreen).toContain('npm install && npm start');
    expect(firstScreen).toContain('npm test');
  });

  it.each(MARKDOWN_FILES)('every link of %s resolves inside the repository', (file) => {
    const problems = linkTargets(readFileSync(file, 'utf8'))
      .map((target) => problem(file, target))
      .filter((found) => found !== null);
    expect(problems).toEqual([]);
  });

  it('the slugs are GitHub’s', () => {
    expect(slug('From a post to every channel')).toBe('from-a-post-to-every-channel');
    expect(slug('Screenshots (`docs/screenshots/`)')).toBe('screenshots-docsscreenshots');
    expect(slug('The API: the contract, the endpoints')).toBe('the-api-the-contract-the-endpoints');
    expect(slug('`updatedAt`')).toBe('updatedat');
    expect([...anchors('# A\n## B\n## B\n```\n# C\n```\n')]).toEqual(['a', 'b', 'b-1']);
    expect(linkTargets('[a](x.md) `[b](y.md)` ![c](d.png "t")\n```\n[e](f.md)\n```\n')).toEqual(['x.md', 'd.png']);
  });
});
