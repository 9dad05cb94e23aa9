import { describe, expect, it } from 'vitest';
import { NOW } from '../test-events.ts';
import type { Event } from '../schemas.ts';
import { chooseReviewLocale, editedEvent, renderReviewPage } from './page.ts';

/** The review page's pure parts: the language it picks, the edited event, and HTML that only ever carries text. */

const DRAFT: Event = {
  id: '1900000000000000103',
  provider: 'provider_b',
  kind: 'reset',
  scope: 'global',
  announcedAt: '2026-06-15T11:58:00.000Z',
  effectiveAt: null,
  sourceUrl: 'https://social.example/@b/1900000000000000103?a="x"&b=<y>',
  sourceAccount: '@b"><img src=x>',
  summary: 'Reset </blockquote><script>alert(1)</script>',
  audience: [],
  verified: false,
};
const EXPIRES = new Date('2026-06-16T12:00:00.000Z');

describe('the review page’s language', () => {
  it.each([
    ['zh', null, 'zh'],
    ['en', 'zh-CN', 'en'],
    ['ZH-hans', null, 'zh'],
    ['it', 'zh-TW,zh;q=0.9', 'zh'],
    [undefined, 'it-IT, nl;q=0.9, zh;q=0.8, en;q=0.7', 'zh'],
    [undefined, 'en;q=0.5, zh;q=0.9', 'zh'],
    [undefined, 'zh;q=0, en', 'en'],
    [undefined, 'it', 'en'],
    [undefined, null, 'en'],
  ] as const)('lang=%s with Accept-Language %s is %s', (lang, accept, expected) => {
    expect(chooseReviewLocale(lang, accept)).toBe(expected);
  });
});

describe('the edited event', () => {
  it('is the draft with the three edits, verified; an empty effectiveAt is none', () => {
    const clean = { ...DRAFT, sourceAccount: '@b', summary: 'Reset', sourceUrl: 'https://social.example/@b/1' };
    expect(editedEvent(clean, { kind: 'boost', scope: ' plan:pro ', effectiveAt: '' }, NOW)).toEqual({
      ok: true,
      event: { ...clean, kind: 'boost', scope: 'plan:pro', effectiveAt: null, verified: true },
    });
    expect(editedEvent(clean, { kind: 'party', scope: 'global', effectiveAt: '2026-06-16' }, NOW)).toEqual({
      ok: false,
      issues: [
        { field: 'kind', message: expect.any(String) },
        {
          field: 'effectiveAt',
          message: 'must be an ISO 8601 UTC time with milliseconds, like 2026-03-04T05:06:07.089Z',
        },
      ],
    });
  });
});

describe('the edited event against the content’s time rules (as npm run validate)', () => {
  const clean = { ...DRAFT, sourceAccount: '@b', summary: 'Reset', sourceUrl: 'https://social.example/@b/1' };
  it('refuses an effectiveAt at or before announcedAt, and a post from the future, each on its field', () => {
    expect(editedEvent(clean, { kind: 'reset', scope: 'global', effectiveAt: clean.announcedAt }, NOW)).toEqual({
      ok: false,
      issues: [{ field: 'effectiveAt', message: expect.stringContaining('must be later than announcedAt') }],
    });
    const beforePost = new Date(Date.parse(clean.announcedAt) - 60_000);
    expect(editedEvent(clean, { kind: 'reset', scope: 'global', effectiveAt: '' }, beforePost)).toEqual({
      ok: false,
      issues: [{ field: 'announcedAt', message: expect.stringContaining('is in the future') }],
    });
  });
});

describe('the page', () => {
  it('carries whatever a post or a request holds as text only, in a phone-wide page without a script', () => {
    const html = renderReviewPage({ kind: 'draft', event: DRAFT, token: '1."><b>', expiresAt: EXPIRES }, 'en');
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain('Reset &lt;/blockquote&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('href="https://social.example/@b/1900000000000000103?a=&quot;x&quot;&amp;b=&lt;y&gt;"');
    expect(html).toContain('<input type="hidden" name="t" value="1.&quot;&gt;&lt;b&gt;">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('This link works until');
    // Only an https address is a link.
    const other = renderReviewPage(
      { kind: 'draft', event: { ...DRAFT, sourceUrl: 'javascript:alert(1)' }, token: 't', expiresAt: EXPIRES },
      'en',
    );
    expect(other).not.toContain('href="javascript');
  });

  it('writes Chinese with full-width brackets and colons around the field names', () => {
    const clean = { ...DRAFT, sourceAccount: '@b', summary: 'Reset' };
    const issues = [{ field: 'scope' as const, message: 'must be "global"' }];
    const html = renderReviewPage({ kind: 'draft', event: clean, token: 't', expiresAt: EXPIRES, issues }, 'zh');
    expect(html).toContain('公告类型（kind）');
    expect(html).toContain('供应商 B（provider_b）');
    expect(html).toContain('<li>范围（scope）：must be &quot;global&quot;</li>');
    const text = html.replace(/<[^>]*>/g, ' ');
    expect(text).not.toMatch(/\p{Script=Han} *[,:;()]|[,:;()] *\p{Script=Han}/u);
  });

  it('says every refusal in both languages, with the cross-site origin as text', () => {
    const en = renderReviewPage({ kind: 'refused', refusal: 'crossSite', origin: 'https://e.example/"<x>' }, 'en');
    expect(en).toContain('The form came from another site (https://e.example/&quot;&lt;x&gt;)');
    const zh = renderReviewPage(
      { kind: 'refused', refusal: 'used', draftId: DRAFT.id, token: 't', outcome: 'rejected' },
      'zh',
    );
    expect(zh).toContain('<html lang="zh-Hans">');
    expect(zh).toContain('<h1>此链接已使用过</h1>');
    expect(zh).toContain('当前状态：已拒绝：这条帖子不会再被提议。');
  });
});
