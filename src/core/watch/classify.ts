import { z } from 'zod';
import { EVENT_KINDS, LOCALES, type EventKind } from '../vocabulary.ts';

/** The watcher's first guess at a post's kind, from keyword rules that live as data in content/watch. */

export const ClassificationRulesSchema = z.object({
  order: z.array(z.enum(EVENT_KINDS)).min(1),
  keywords: z.partialRecord(z.enum(EVENT_KINDS), z.partialRecord(z.enum(LOCALES), z.array(z.string().min(1)))),
});
export type ClassificationRules = z.infer<typeof ClassificationRulesSchema>;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A keyword that starts or ends with a letter or digit matches only at a word boundary there ("reset" not
 * inside "preset", but "% off" after "30"); CJK text has no word boundaries and matches anywhere. */
function keywordPattern(keyword: string): RegExp {
  const lower = keyword.toLowerCase();
  const before = /^[a-z0-9]/.test(lower) ? '(^|[^a-z0-9])' : '';
  const after = /[a-z0-9]$/.test(lower) ? '($|[^a-z0-9])' : '';
  return new RegExp(`${before}${escapeRegExp(lower)}${after}`, 'u');
}

export function createClassifier(rules: ClassificationRules): (text: string) => EventKind | null {
  const compiled = rules.order.map((kind) => ({
    kind,
    patterns: Object.values(rules.keywords[kind] ?? {})
      .flat()
      .map(keywordPattern),
  }));
  return (text) => {
    const lower = text.toLowerCase();
    return compiled.find(({ patterns }) => patterns.some((pattern) => pattern.test(lower)))?.kind ?? null;
  };
}
