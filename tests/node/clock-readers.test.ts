import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib/tools.ts';
import { clockReadingTests } from '../support/clock-readers.ts';
import { tempFolder } from '../support/temp-folders.ts';

/**
 * The moved clocks run only the in-process files that read the clock (vitest.config.ts; tests/support/clock-readers.ts).
 * The finder must see a read however deep in the imports it is, and in the libraries that read it, or a fixture that
 * goes stale would pass today again.
 */

let root: string;
const files: Record<string, string> = {
  'src/pure.ts': '// Date.now() in a comment is not a read\nexport const at = (now: Date) => now; /* new Date() */\n',
  'src/pure.test.ts': "import { at } from './pure.ts';\nat(new Date('2026-01-01T00:00:00Z'));\n",
  'src/deep/clock.ts': 'export const now = () => Date.now();\n',
  'src/deep/middle.ts': "export { now } from './clock.ts';\n",
  'src/deep.test.ts': "import { now } from './deep/middle.ts';\nnow();\n",
  'src/lazy.test.ts': "const load = () => import('./deep/clock.ts');\nvoid load;\n",
  'src/own.test.ts': 'const today = new Date();\nvoid today;\n',
  'functions/token.test.ts': "import { jwtVerify } from 'jose';\nvoid jwtVerify;\n",
  'functions/url.test.ts': "const url = 'https://example.com/x'; // Date.now()\nvoid url;\n",
};

beforeAll(async () => {
  root = tempFolder('clock-readers');
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
});

describe('the files that run at the moved clocks', () => {
  it('are those that read the clock themselves, through any import (static, re-exported, dynamic) or a library', () => {
    expect([...clockReadingTests(root).keys()]).toEqual([
      'functions/token.test.ts',
      'src/deep.test.ts',
      'src/lazy.test.ts',
      'src/own.test.ts',
    ]);
  });

  it('hold, in this repository, the route tests (the worker reads the clock) and not the pure core with its own now', () => {
    const readers = clockReadingTests(projectRoot);
    expect(readers.get('functions/app.test.ts')).toMatch(/^functions\/app\.ts: new Date\(\)$/);
    expect(readers.has('src/node/event-store.test.ts')).toBe(true);
    expect(readers.has('src/core/board.test.ts')).toBe(false);
  });
});
