import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ClassificationRulesSchema, createClassifier } from './classify.ts';

// The rules the watcher really uses, and a corpus of realistic posts in English and Chinese.
const rules = ClassificationRulesSchema.parse(JSON.parse(readFileSync('content/watch/classification.json', 'utf8')));
const corpus = JSON.parse(readFileSync(new URL('./classification-corpus.json', import.meta.url), 'utf8')) as [
  string,
  string | null,
][];
const classify = createClassifier(rules);

describe('the watcher’s classification rules', () => {
  it.each(corpus)('%s → %s', (text, kind) => {
    expect(classify(text)).toBe(kind);
  });

  it('matches Latin keywords at word boundaries only', () => {
    expect(classify('A new preset for resetting nothing')).toBeNull();
    expect(classify('RESET DONE')).toBe('reset');
  });

  it('follows the rules’ order when several kinds match', () => {
    const teaseFirst = createClassifier({
      order: ['tease', 'reset'],
      keywords: { tease: { en: ['soon'] }, reset: { en: ['reset'] } },
    });
    const resetFirst = createClassifier({
      order: ['reset', 'tease'],
      keywords: { tease: { en: ['soon'] }, reset: { en: ['reset'] } },
    });
    expect(teaseFirst('a reset soon')).toBe('tease');
    expect(resetFirst('a reset soon')).toBe('reset');
  });
});
