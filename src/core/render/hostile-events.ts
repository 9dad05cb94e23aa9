import { PROVIDERS } from '../enums.ts';
import type { Event } from '../schemas.ts';
import { makeEvent } from '../test-events.ts';

/**
 * Test support: events that validation accepts and that try every output's escaping (decisions.md, "One honest
 * answer"): formulas on lines after the first, every line starting with a formula character, markup and entity
 * look-alikes, astral characters, right-to-left text with the marks it may hold (no overrides), the longest summary,
 * and an account, a source URL and an audience full of markup. Announced before `NOW` of src/core/test-events.ts, so
 * valid at any later clock too.
 */
export const HOSTILE_SUMMARIES = {
  formulaSecondLine: 'Limits reset for everyone.\n=HYPERLINK("https://evil.example","details")',
  formulaEveryLine: '=1+1\n+SUM(A1)\r\n-2\r@cmd\n\r=after a CR\r\n\r\n=after a blank line',
  markup:
    '<![CDATA[x]]> ]]> <!-- c --> <?xml version="1.0"?> <!DOCTYPE x [<!ENTITY e "boom">]> &e; <a href="javascript:alert(1)">x</a>',
  entities: '&amp; &lt; &#0; &#x1; &#xFFFF; &#xD800; &nbsp; &bogus; &; & x',
  astral: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🚀 👩‍👩‍👧 𠀀 \u{10FFFD} \uFFFD',
  rightToLeft: 'إعادة تعيين حدود الاستخدام \u200F(Pro)\u200F — איפוס מגבלות השימוש',
  // 280 characters, each escaped in HTML and then again in XML: the longest a summary may be.
  longest: '<&>"🚀'.repeat(56),
} as const;

/** Valid, and made of markup: `&`, `<`, `"` and a CDATA end in the account, the URL and the audience. */
export const HOSTILE_ACCOUNT = '<acct> & "co" ]]>';
export const HOSTILE_SOURCE_URL = 'https://posts.provider-a.example/a?b=1&c=<2>&d="3"#]]>';
export const HOSTILE_AUDIENCE = ['<pro>', '&team', '=SUM(1)'];

export const hostileEvents = (): Event[] =>
  Object.entries(HOSTILE_SUMMARIES).map(([name, summary], index) => {
    const provider = PROVIDERS[index % PROVIDERS.length]!;
    return makeEvent({
      id: `hostile-${name}`,
      provider,
      summary,
      announcedAt: new Date(Date.UTC(2026, 4, 20 - index, 8)).toISOString(),
      ...(index === 0
        ? { sourceAccount: HOSTILE_ACCOUNT, sourceUrl: HOSTILE_SOURCE_URL, audience: HOSTILE_AUDIENCE }
        : {}),
    });
  });
