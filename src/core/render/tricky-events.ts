import { PROVIDERS } from '../enums.ts';
import { makeEvent } from '../test-events.ts';

/** Test support: summaries that break naive renderers. */
export const TRICKY_SUMMARIES = {
  commas: 'Reset for Pro, Max, and Team plans',
  quotes: 'They said "reset soon" and then: "done"',
  lineBreaks: 'First line\r\nSecond line\nThird line',
  nonAscii: '额度已重置 — naïve café ✅ 🚀',
  cdataEnd: 'Tricky ]]> end of CDATA',
  script: '<script>alert("x")</script> & <b>bold</b>',
  markdown: '[click](https://evil.example) **bold** # heading | table',
  formula: '=HYPERLINK("https://evil.example","reset")',
} as const;

export const trickyEvents = () =>
  Object.entries(TRICKY_SUMMARIES).map(([name, summary], index) =>
    makeEvent({
      id: `tricky-${name}`,
      summary,
      provider: PROVIDERS[index % PROVIDERS.length]!,
      announcedAt: new Date(Date.UTC(2026, 5, 10 - index, 8)).toISOString(),
    }),
  );
