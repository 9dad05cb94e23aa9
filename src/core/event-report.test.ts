import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeEvent } from './test-events.ts';
import { repositoryBaseUrl, wrongEventReportUrl } from './event-report.ts';

const REPOSITORY = 'https://code.example/owner/board';
const BASE = 'https://board.example';

describe('the report link of an event', () => {
  it('opens the wrong-event form with the id, the page and the original post filled in', () => {
    const event = makeEvent({
      id: '1843001759511100472',
      provider: 'provider_a',
      summary: 'Usage limits have been reset for everyone.',
      sourceUrl: 'https://posts.provider-a.example/@provider_a_eng/1843001759511100472',
    });
    expect(wrongEventReportUrl(REPOSITORY, BASE, event)).toBe(
      'https://code.example/owner/board/issues/new?template=wrong-event.yml' +
        '&title=%5Bwrong%20event%5D%201843001759511100472%3A%20Usage%20limits%20have%20been%20reset%20for%20everyone.' +
        '&event-id=1843001759511100472' +
        '&page-url=https%3A%2F%2Fboard.example%2Fprovider_a%23event-1843001759511100472' +
        '&source-url=https%3A%2F%2Fposts.provider-a.example%2F%40provider_a_eng%2F1843001759511100472',
    );
  });

  it('encodes a hostile id, summary and post URL, so that none of them adds or ends a parameter', () => {
    const event = makeEvent({
      id: 'a&b=c#d e/?%',
      provider: 'provider_b',
      summary: 'Reset & "bonus"\n\t<script>alert(1)</script> 100% done #now and more after the cut',
      sourceUrl: 'https://posts.provider-b.example/p?q=1&r=2#frag',
    });
    expect(wrongEventReportUrl(REPOSITORY, BASE, event)).toBe(
      'https://code.example/owner/board/issues/new?template=wrong-event.yml' +
        '&title=%5Bwrong%20event%5D%20a%26b%3Dc%23d%20e%2F%3F%25%3A%20Reset%20%26%20%22bonus%22%20%3Cscript%3Ealert(1)%3C%2Fscript%3E%20100%25%20don%E2%80%A6' +
        '&event-id=a%26b%3Dc%23d%20e%2F%3F%25' +
        '&page-url=https%3A%2F%2Fboard.example%2Fprovider_b%23event-a%26b%3Dc%23d%20e%2F%3F%25' +
        '&source-url=https%3A%2F%2Fposts.provider-b.example%2Fp%3Fq%3D1%26r%3D2%23frag',
    );
  });

  it('cuts the summary at a character, never inside an emoji, and mends a lone surrogate', () => {
    const cut = wrongEventReportUrl(REPOSITORY, BASE, makeEvent({ id: 'x1', summary: `${'x'.repeat(49)}🎉🎉` }));
    expect(cut).toContain(`&title=%5Bwrong%20event%5D%20x1%3A%20${'x'.repeat(49)}%F0%9F%8E%89%E2%80%A6&event-id=x1&`);
    const lone = wrongEventReportUrl(REPOSITORY, BASE, makeEvent({ id: 'x2', summary: 'bad \uD800 half' }));
    expect(lone).toContain('&title=%5Bwrong%20event%5D%20x2%3A%20bad%20%EF%BF%BD%20half&event-id=x2&');
  });

  it('gives back exactly the id, the page and the post to a URL parser, whatever they hold', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.string({ unit: 'grapheme', minLength: 1 }),
        (id, summary) => {
          const sourceUrl = `https://posts.example/${id}`;
          const url = new URL(wrongEventReportUrl(REPOSITORY, BASE, makeEvent({ id, summary, sourceUrl }))!);
          expect([...url.searchParams.keys()]).toEqual(['template', 'title', 'event-id', 'page-url', 'source-url']);
          expect(url.searchParams.get('event-id')).toBe(id);
          expect(url.searchParams.get('page-url')).toBe(`${BASE}/provider_a#event-${id}`);
          expect(url.searchParams.get('source-url')).toBe(sourceUrl);
          expect(url.hash).toBe('');
        },
      ),
    );
  });

  it('is not made without a repository: there is nowhere to report to', () => {
    expect(wrongEventReportUrl(null, BASE, makeEvent())).toBeNull();
  });
});

describe('REPOSITORY_URL as the links use it', () => {
  it.each([
    ['https://code.example/owner/board', 'https://code.example/owner/board'],
    [' https://code.example/owner/board// ', 'https://code.example/owner/board'],
    ['http://localhost:3000/owner/board/', 'http://localhost:3000/owner/board'],
  ])('%j is %j', (configured, expected) => {
    expect(repositoryBaseUrl(configured)).toBe(expected);
  });

  it.each([undefined, null, '', '   ', '/', 'owner/board', 'javascript:alert(1)', 'ftp://code.example/owner/board'])(
    '%j is none',
    (configured) => {
      expect(repositoryBaseUrl(configured)).toBeNull();
    },
  );
});
