import { describe, expect, it } from 'vitest';
import { buildDraftEvent, idFromPostUrl, serializeEventFile, toUtcTimestamp } from './new-event.ts';

describe('idFromPostUrl', () => {
  it.each([
    ['https://social.provider-b.example/@providerb/113501789726327513', '113501789726327513'],
    ['https://x.example/provider_a/status/1843001794760927288?s=20', '1843001794760927288'],
    ['https://blog.provider-c.example/posts/2026-11-19-tease', '2026-11-19-tease'],
    ['https://blog.provider-c.example/2026/11/limits-reset.html', 'limits-reset'],
    ['https://blog.provider-c.example/notes/résumé du jour/', 'notes-r-sum-du-jour'],
    ['not a url', null],
    ['https://x.example/', null],
  ])('%s → %s', (url, id) => {
    expect(idFromPostUrl(url)).toBe(id);
  });
});

describe('toUtcTimestamp', () => {
  it.each([
    ['2026-11-21T18:30:00+08:00', '2026-11-21T10:30:00.000Z'],
    ['2026-11-21T18:30-05:00', '2026-11-21T23:30:00.000Z'],
    ['2026-11-21T18:30:00.5Z', '2026-11-21T18:30:00.500Z'],
    ['2026-11-21T18:30:00', null],
    ['2026-11-21', null],
    ['yesterday', null],
  ])('%s → %s', (input, expected) => {
    expect(toUtcTimestamp(input)).toBe(expected);
  });
});

describe('buildDraftEvent', () => {
  const input = {
    provider: 'provider_a',
    kind: 'reset',
    sourceUrl: 'https://posts.provider-a.example/@provider_a_eng/1843001794760927999',
    sourceAccount: '@provider_a_eng',
    summary: '  Limits reset for everyone.  ',
    announcedAt: '2026-11-21T18:30:00+08:00',
  };

  it('makes a full draft: derived id, UTC time, global scope, account without @', () => {
    expect(buildDraftEvent(input)).toEqual({
      ok: true,
      event: {
        id: '1843001794760927999',
        provider: 'provider_a',
        kind: 'reset',
        scope: 'global',
        announcedAt: '2026-11-21T10:30:00.000Z',
        effectiveAt: null,
        sourceUrl: input.sourceUrl,
        sourceAccount: 'provider_a_eng',
        summary: 'Limits reset for everyone.',
        audience: [],
        verified: false,
      },
    });
  });

  it('reports every bad field', () => {
    const result = buildDraftEvent({
      ...input,
      kind: 'restart',
      sourceUrl: 'http://posts.provider-a.example/1',
      announcedAt: '2026-11-21T18:30:00+08:00',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((problem) => problem.field).sort()).toEqual(['kind', 'sourceUrl']);
    const noTime = buildDraftEvent({ ...input, announcedAt: 'tomorrow' });
    expect(noTime.ok || noTime.problems.map((problem) => problem.field)).toEqual(['announcedAt']);
  });

  it("refuses control characters, bidirectional overrides and noncharacters with the content rules' words", () => {
    const result = buildDraftEvent({
      ...input,
      sourceAccount: '@provider_a\u0007',
      summary: 'Limits \u202Ereset\uFFFF',
      audience: ['pro\u2069'],
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        { field: 'sourceAccount', message: 'holds U+0007 (a control character) at character 11, after "provider_a"' },
        {
          field: 'summary',
          message:
            'holds U+202E (a bidirectional embedding or override) at character 8, after "Limits " (and 1 more such character)',
        },
        { field: 'audience.0', message: 'holds U+2069 (a bidirectional isolate) at character 4, after "pro"' },
      ],
    });
  });

  it('writes files in one stable form', () => {
    const result = buildDraftEvent(input);
    if (!result.ok) throw new Error('expected a draft');
    const text = serializeEventFile(result.event);
    expect(text.endsWith('}\n')).toBe(true);
    expect(Object.keys(JSON.parse(text))).toEqual([
      'id',
      'provider',
      'kind',
      'scope',
      'announcedAt',
      'effectiveAt',
      'sourceUrl',
      'sourceAccount',
      'summary',
      'audience',
      'verified',
    ]);
  });
});
