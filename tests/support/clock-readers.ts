import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Which in-process test files run at the moved clocks too (vitest.config.ts, CLOCK_SHIFTS_DAYS; docs/testing.md,
 * "How a test gets now"): those that read the clock, themselves or through any module they import, transitively
 * (relative imports, static or dynamic). Moving the clock shows nothing for a file that never reads it: its fixtures
 * and its `now` are written out, and the same assertions hold at any date. Found from the code, never listed by
 * hand, so that a file that starts to read the clock is shifted from its next run on.
 *
 * Reading the clock is, in code without its comments: `Date.now(`, `new Date()`, `Date()`, `new TZDate()`,
 * `new UTCDate()`, or importing one of CLOCK_READING_PACKAGES (libraries that read `Date.now()` themselves).
 * `node tests/support/clock-readers.ts` prints the list and the reason for each.
 */

/** Packages that read the clock inside (token lifetimes, signature tolerances): importing one reads it. */
export const CLOCK_READING_PACKAGES = ['jose', 'standardwebhooks', '@block65/webcrypto-web-push'] as const;

const CLOCK_READ = /\bDate\.now\s*\(|\bnew\s+(?:Date|TZDate|UTCDate)\s*\(\s*\)|(?<![\w$.]|new\s)Date\s*\(\s*\)/;
const PACKAGE_IMPORT = new RegExp(
  `(?:from|import)\\s*\\(?\\s*['"](?:${CLOCK_READING_PACKAGES.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})(?:/[^'"]*)?['"]`,
);
/** Every relative module specifier in the file: imports, re-exports, `import()`; other strings that name a .ts too. */
const RELATIVE_SPECIFIER = /['"](\.\.?\/[^'"\n]+?\.(?:ts|js|mjs))['"]/g;

/** The code without its comments (a `//` after `:`, as in a URL, is kept: it is not a comment). */
const withoutComments = (source: string): string =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[\s;{}(),])\/\/.*$/gm, '$1');

interface ModuleFacts {
  readsClock: string | null;
  imports: string[];
}

function moduleFacts(file: string, cache: Map<string, ModuleFacts>): ModuleFacts {
  const known = cache.get(file);
  if (known !== undefined) return known;
  const code = existsSync(file) ? withoutComments(readFileSync(file, 'utf8')) : '';
  const clock = CLOCK_READ.exec(code)?.[0] ?? PACKAGE_IMPORT.exec(code)?.[0] ?? null;
  const imports = [...code.matchAll(RELATIVE_SPECIFIER)].map((match) => path.resolve(path.dirname(file), match[1]!));
  const facts = { readsClock: clock, imports };
  cache.set(file, facts);
  return facts;
}

/** The first module (by breadth) that `file` reaches and that reads the clock, with what it reads; null if none. */
export function clockReadOf(file: string, cache = new Map<string, ModuleFacts>()): string | null {
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift()!;
    const facts = moduleFacts(current, cache);
    if (facts.readsClock !== null) return `${current}: ${facts.readsClock}`;
    for (const next of facts.imports) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return null;
}

function testFilesUnder(root: string, folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.test.ts')) found.push(path.join(entry.parentPath, entry.name));
  }
  return found;
}

/** The in-process test files (src/, functions/) that read the clock, relative to `root`, sorted, with the reason. */
export function clockReadingTests(root: string, folders = ['src', 'functions']): Map<string, string> {
  const cache = new Map<string, ModuleFacts>();
  const readers = new Map<string, string>();
  for (const file of folders.flatMap((folder) => testFilesUnder(root, folder)).sort()) {
    const read = clockReadOf(file, cache);
    if (read !== null) readers.set(path.relative(root, file), path.relative(root, read));
  }
  return readers;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const readers = clockReadingTests(path.resolve(import.meta.dirname, '../..'));
  for (const [file, reason] of readers) console.log(`${file}\n    ${reason}`);
  console.log(`${readers.size} test files read the clock`);
}
