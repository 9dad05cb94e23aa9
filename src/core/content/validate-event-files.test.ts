import { describe, expect, it } from 'vitest';
import { makeEvent, NOW } from '../test-events.ts';
import { formatContentProblem, validateEventFiles, type EventFile } from './validate-event-files.ts';

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
    ['a sourceUrl that is no URL', eventFile({ sourceUrl: 'posts.provider-a.example/1' }), 'sourceUrl', /https/],
    ['an announcedAt in the future', eventFile({ announcedAt: '2026-06-15T12:00:00.001Z' }), 'announcedAt', /future/],
    [
      'a timestamp without milliseconds',
      eventFile({ announcedAt: '2026-06-01T17:05:00Z' }),
      'announcedAt',
      /milliseconds/,
    ],
    ['a timestamp with an offset', eventFile({ announcedAt: '2026-06-01T17:05:00.000+02:00' }), 'announcedAt', /UTC/],
    ['an impossible date', eventFile({ announcedAt: '2026-02-30T17:05:00.000Z' }), 'announcedAt', /ISO 8601/],
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
    expect(problems).toContainEqual({ file: file.path, field, message: expect.stringMatching(message) });
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
        { file: path, field: null, message: expect.stringMatching(/provider folder/) },
      ]);
    }
  });

  it('rejects a duplicate id, even across providers, naming both files', () => {
    const other = { ...goodEvent, provider: 'provider_b' };
    const files = [eventFile(), { path: `provider_b/${goodEvent.id}.json`, text: JSON.stringify(other) }];
    expect(problemsOf(files)).toEqual([
      {
        file: `provider_b/${goodEvent.id}.json`,
        field: 'id',
        message: expect.stringContaining(`provider_a/${goodEvent.id}.json`),
      },
    ]);
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
        { file: 'provider_a/x.json', field: 'announcedAt', message: 'is in the future' },
        'content/events',
      ),
    ).toBe(
      'content/events/provider_a/x.json → announcedAt: is in the future\n    fix: UTC with milliseconds, e.g. 2026-11-21T10:30:00.000Z (npm run event:add converts any offset)',
    );
    expect(formatContentProblem({ file: 'x.json', field: null, message: 'malformed JSON' }, 'content/events')).toBe(
      'content/events/x.json: malformed JSON',
    );
  });
});
