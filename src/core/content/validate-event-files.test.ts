import { describe, expect, it } from 'vitest';
import { makeEvent, NOW } from '../test-events.ts';
import { EVENT_KINDS, PROVIDERS } from '../vocabulary.ts';
import { FIELD_HINTS, formatContentProblem, validateEventFiles, type EventFile } from './validate-event-files.ts';

const goodEvent = makeEvent({ id: '1843000000000000001', announcedAt: '2026-06-01T17:05:00.000Z' });

/** An event file at its right place, with `changes` applied to the JSON object (undefined removes a field). */
function eventFile(changes: Record<string, unknown> = {}, path = `provider_a/${goodEvent.id}.json`): EventFile {
  const data: Record<string, unknown> = { ...goodEvent, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete data[key];
  return { path, text: JSON.stringify(data, null, 2) };
}

const problemsOf = (files: EventFile[]) => validateEventFiles(files, NOW).problems;

describe('validateEventFiles', () => {
  it('accepts a full, well-placed event, drafts included', () => {
    const draft = makeEvent({ id: 'draft-1', verified: false, announcedAt: '2026-06-02T00:00:00.000Z' });
    const result = validateEventFiles(
      [eventFile(), { path: 'provider_a/draft-1.json', text: JSON.stringify(draft) }],
      NOW,
    );
    expect(result.problems).toEqual([]);
    expect(result.events).toEqual([goodEvent, draft]);
  });

  it.each<[string, EventFile, string | null, RegExp]>([
    ['malformed JSON', { path: 'provider_a/x.json', text: '{"id": "x",' }, null, /malformed JSON/],
    ['a JSON value that is not an object', { path: 'provider_a/x.json', text: '[]' }, null, /one JSON object/],
    ['a missing field', eventFile({ sourceAccount: undefined }), 'sourceAccount', /is missing/],
    ['an unknown field', eventFile({ title: 'extra' }), 'title', /unknown field/],
    ['a wrong type', eventFile({ verified: 'yes' }), 'verified', /expected boolean/],
    ['a wrong enumeration value', eventFile({ kind: 'restart' }), 'kind', /reset/],
    ['an unknown provider', eventFile({ provider: 'provider_z' }), 'provider', /provider_a/],
    ['a folder that does not match provider', eventFile({ provider: 'provider_b' }), 'provider', /"provider_a" folder/],
    ['a file name that does not match id', eventFile({ id: 'other' }), 'id', /named "1843000000000000001.json"/],
    ['an id outside the safe alphabet', eventFile({ id: 'a b' }, 'provider_a/a b.json'), 'id', /letters, digits/],
    ['a summary over 280 characters', eventFile({ summary: 'x'.repeat(281) }), 'summary', /at most 280/],
    ['an empty summary', eventFile({ summary: '' }), 'summary', /empty/],
    [
      'a summary with a right-to-left override',
      eventFile({ summary: 'Reset \u202Eexe.txt' }),
      'summary',
      /bidirectional/,
    ],
    ['a summary with a control character', eventFile({ summary: 'Reset\u0007 now' }), 'summary', /control characters/],
    [
      'a sourceUrl that is not https',
      eventFile({ sourceUrl: 'http://posts.provider-a.example/1' }),
      'sourceUrl',
      /https/,
    ],
    [
      'a sourceUrl with a line break inside, which a URL parser would drop',
      eventFile({ sourceUrl: 'https://posts.provider-a.example/1\n2' }),
      'sourceUrl',
      /https/,
    ],
    ['a sourceUrl that is no URL', eventFile({ sourceUrl: 'posts.provider-a.example/1' }), 'sourceUrl', /https/],
    ['an announcedAt in the future', eventFile({ announcedAt: '2026-06-15T12:00:00.001Z' }), 'announcedAt', /future/],
    [
      'a timestamp without milliseconds',
      eventFile({ announcedAt: '2026-06-01T17:05:00Z' }),
      'announcedAt',
      /milliseconds/,
    ],
    ['a timestamp with an offset', eventFile({ announcedAt: '2026-06-01T17:05:00.000+02:00' }), 'announcedAt', /UTC/],
    [
      'an impossible date',
      eventFile({ announcedAt: '2026-02-30T17:05:00.000Z' }),
      'announcedAt',
      /2026-02-30 does not exist: February 2026 has 28 days/,
    ],
    [
      'an impossible date without milliseconds',
      eventFile({ announcedAt: '2026-02-30T10:00:00Z' }),
      'announcedAt',
      /2026-02-30 does not exist/,
    ],
    [
      'a month that does not exist',
      eventFile({ effectiveAt: '2026-13-01T10:00:00.000Z' }),
      'effectiveAt',
      /there is no month 13/,
    ],
    [
      'an hour that does not exist',
      eventFile({ announcedAt: '2026-06-01T24:30:00.000Z' }),
      'announcedAt',
      /time 24:30:00 does not exist/,
    ],
    ['a date without a time', eventFile({ effectiveAt: '2026-06-03' }), 'effectiveAt', /ISO 8601/],
    [
      'an effectiveAt not after announcedAt',
      eventFile({ effectiveAt: goodEvent.announcedAt }),
      'effectiveAt',
      /later than announcedAt/,
    ],
    [
      'a scope that is neither global nor plan:<name>',
      eventFile({ scope: 'team' }),
      'scope',
      /"global" or "plan:<plan_name>"/,
    ],
    ['a plan scope without a name', eventFile({ scope: 'plan:' }), 'scope', /plan_name/],
    ['an audience that is not a list of strings', eventFile({ audience: [1] }), 'audience.0', /expected string/],
  ])('rejects %s, naming the file and the field', (_, file, field, message) => {
    const problems = problemsOf([file]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems).toContainEqual(
      expect.objectContaining({ file: file.path, field, message: expect.stringMatching(message) }),
    );
    expect(validateEventFiles([file], NOW).events).toEqual([]);
  });

  it('counts a summary in characters, not UTF-16 units', () => {
    expect(problemsOf([eventFile({ summary: '🚀'.repeat(280) })])).toEqual([]);
    expect(problemsOf([eventFile({ summary: '🚀'.repeat(281) })])).toContainEqual(
      expect.objectContaining({ field: 'summary' }),
    );
  });

  it('rejects a file outside a provider folder', () => {
    for (const path of [
      `${goodEvent.id}.json`,
      `provider_z/${goodEvent.id}.json`,
      `provider_a/2026/${goodEvent.id}.json`,
    ]) {
      expect(problemsOf([eventFile({}, path)])).toEqual([
        {
          file: path,
          field: null,
          message: expect.stringMatching(/provider folder/),
          fix: expect.stringContaining('provider_a, provider_b, provider_c'),
        },
      ]);
    }
  });

  it('rejects a duplicate id, even across providers, naming both files', () => {
    const other = { ...goodEvent, provider: 'provider_b' };
    const files = [eventFile(), { path: `provider_b/${goodEvent.id}.json`, text: JSON.stringify(other) }];
    const problems = problemsOf(files);
    expect(problems).toEqual([
      {
        file: `provider_b/${goodEvent.id}.json`,
        field: 'id',
        message: expect.stringContaining(`provider_a/${goodEvent.id}.json`),
        fix: expect.any(String),
      },
    ]);
    // The fix fits the problem: the id has a valid form, so the id-format hint would send people astray.
    expect(problems[0]!.fix).toMatch(/delete one of them/);
    expect(problems[0]!.fix).not.toContain('letters, digits');
  });

  it('refuses a key given twice, naming the file, the key and where it stands, and publishes nothing', () => {
    // JSON.parse keeps the last of two equal keys: a reviewer reading the diff sees `false`, the board gets `true`.
    const text = JSON.stringify({ ...goodEvent, verified: false }, null, 2).replace(
      '"verified": false',
      '"verified": false,\n  "verified": true',
    );
    const file = { path: `provider_a/${goodEvent.id}.json`, text };
    const result = validateEventFiles([file], NOW);
    expect(result.events).toEqual([]);
    expect(result.problems).toEqual([
      {
        file: file.path,
        field: 'verified',
        message:
          'duplicate key "verified" (lines 12 and 13); JSON keeps only the last, so the file says one thing and publishes another',
        fix: 'keep one "verified" and delete the other',
      },
    ]);
  });

  it('refuses duplicate keys at any depth and in any spelling, each once', () => {
    const text = '{"id": "x", "audience": [{"a": 1, "b": {"c": 1, "c": 2}, "a": 2, "\\u0061": 3}], "\\u0069d": "x"}';
    const problems = problemsOf([{ path: 'provider_a/x.json', text }]);
    expect(problems).toEqual([
      {
        file: 'provider_a/x.json',
        field: 'id',
        message:
          'duplicate key "id" (line 1, columns 2 and 81); JSON keeps only the last, so the file says one thing and publishes another',
        fix: 'keep one "id" and delete the other',
      },
      {
        file: 'provider_a/x.json',
        field: 'audience.0.a',
        message:
          'duplicate key "a" (line 1, columns 27, 58 and 66); JSON keeps only the last, so the file says one thing and publishes another',
        fix: 'keep one "a" and delete the others',
      },
      {
        file: 'provider_a/x.json',
        field: 'audience.0.b.c',
        message:
          'duplicate key "c" (line 1, columns 41 and 49); JSON keeps only the last, so the file says one thing and publishes another',
        fix: 'keep one "c" and delete the other',
      },
    ]);
  });

  it('refuses a file over 16 KiB, naming its size and the limit', () => {
    const padded = (text: string, length: number) => text + ' '.repeat(length - text.length);
    const { path, text } = eventFile();
    expect(problemsOf([{ path, text: padded(text, 16_384) }])).toEqual([]);
    expect(problemsOf([{ path, text: padded(text, 16_385) }])).toEqual([
      {
        file: path,
        field: null,
        message: 'is 16385 bytes; an event file may be at most 16384 bytes (16 KiB)',
        fix: 'an event file holds one short post: shorten the summary or the audience list',
      },
    ]);
    // Counted in UTF-8 bytes, as on disk: each "€" is one UTF-16 unit and three bytes.
    const euros = eventFile({ summary: '€'.repeat(280) }).text;
    expect(problemsOf([{ path, text: padded(euros, 16_000) }])).toEqual([
      expect.objectContaining({ message: 'is 16560 bytes; an event file may be at most 16384 bytes (16 KiB)' }),
    ]);
  });

  it('reports a javascript: sourceUrl once', () => {
    expect(problemsOf([eventFile({ sourceUrl: 'javascript:alert(1)' })])).toEqual([
      {
        file: `provider_a/${goodEvent.id}.json`,
        field: 'sourceUrl',
        message: 'must be an https URL of the original public post',
        fix: 'the https address of the original public post',
      },
    ]);
  });

  it('accepts a file that starts with a UTF-8 byte order mark', () => {
    const file = eventFile();
    const result = validateEventFiles([{ ...file, text: `\uFEFF${file.text}` }], NOW);
    expect(result.problems).toEqual([]);
    expect(result.events).toEqual([goodEvent]);
  });

  it('gives each problem a fix that fits it', () => {
    const [misnamed] = problemsOf([eventFile({ id: 'other' })]);
    expect(misnamed!.fix).toBe(
      'name the file other.json, or set id to "1843000000000000001" (an id is the post id from its URL)',
    );
    const [misplaced] = problemsOf([eventFile({ provider: 'provider_b' })]);
    expect(misplaced!.fix).toBe('move the file to provider_b/, or set provider to "provider_a"');
    const [badKind] = problemsOf([eventFile({ kind: 'restart' })]);
    expect(badKind!.fix).toBe('one of reset, banked, boost, promo, tease');
    const [unknown] = problemsOf([eventFile({ title: 'x' })]);
    expect(unknown!.fix).toBe('delete the field');
  });

  it('builds its hints from the vocabulary and the summary limit, not from a second copy', () => {
    for (const provider of PROVIDERS) expect(FIELD_HINTS.provider).toContain(provider);
    for (const kind of EVENT_KINDS) expect(FIELD_HINTS.kind).toContain(kind);
    expect(FIELD_HINTS.summary).toContain('1 to 280 characters');
  });

  it('reports every problem of every bad file in one run, and keeps only the good files', () => {
    const second = makeEvent({ id: 'second', announcedAt: '2026-06-03T00:00:00.000Z' });
    const files = [
      eventFile({ kind: 'nope', summary: '' }),
      { path: 'provider_a/second.json', text: JSON.stringify(second) },
      { path: 'provider_b/broken.json', text: 'not json' },
      { path: 'provider_c/wrong-name.json', text: JSON.stringify({ ...second, id: 'third', provider: 'provider_c' }) },
    ];
    const { events, problems } = validateEventFiles(files, NOW);
    expect(events).toEqual([second]);
    expect(problems.map(({ file, field }) => `${file}:${field}`).sort()).toEqual([
      `provider_a/${goodEvent.id}.json:kind`,
      `provider_a/${goodEvent.id}.json:summary`,
      'provider_b/broken.json:null',
      'provider_c/wrong-name.json:id',
    ]);
  });
});

describe('formatContentProblem', () => {
  it('names the file and the field, and says how to fix it', () => {
    expect(
      formatContentProblem(
        { file: 'provider_a/x.json', field: 'announcedAt', message: 'is in the future', fix: 'the time of the post' },
        'content/events',
      ),
    ).toBe('content/events/provider_a/x.json → announcedAt: is in the future\n    fix: the time of the post');
    expect(formatContentProblem({ file: 'x.json', field: null, message: 'malformed JSON' }, 'content/events')).toBe(
      'content/events/x.json: malformed JSON',
    );
  });
});
