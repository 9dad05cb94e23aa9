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
    ['a summary with a control character', eventFile({ summary: 'Reset\u0007 now' }), 'summary', /control character/],
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
      /^holds U\+000A \(a line break\) at character 35/,
    ],
    [
      'a sourceUrl with a space inside, which a URL parser would encode',
      eventFile({ sourceUrl: 'https://posts.provider-a.example/1 2' }),
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

/**
 * The characters no text field may hold (decisions.md, "One honest answer"), written out by hand: the character,
 * its code point, what the message calls it and how a JSON file may write it.
 */
const REFUSED_CHARACTERS: [name: string, character: string, codePoint: string, what: string, written: string][] = [
  ['NUL', '\u0000', 'U+0000', 'a control character', '\\u0000'],
  ['a bell (C0)', '\u0007', 'U+0007', 'a control character', '\\u0007'],
  ['an escape (C0), which starts terminal sequences', '\u001B', 'U+001B', 'a control character', '\\u001B'],
  ['a tab', '\t', 'U+0009', 'a tab, a control character', '\\t'],
  ['a form feed', '\f', 'U+000C', 'a control character', '\\f'],
  ['DEL', '\u007F', 'U+007F', 'a control character', '\\u007F'],
  ['a next line (C1)', '\u0085', 'U+0085', 'a control character', '\\u0085'],
  ['the last C1 control', '\u009F', 'U+009F', 'a control character', '\\u009F'],
  ['a left-to-right embedding', '\u202A', 'U+202A', 'a bidirectional embedding or override', '\\u202A'],
  ['a pop directional formatting', '\u202C', 'U+202C', 'a bidirectional embedding or override', '\\u202C'],
  ['a right-to-left override', '\u202E', 'U+202E', 'a bidirectional embedding or override', '\\u202E'],
  ['a left-to-right isolate', '\u2066', 'U+2066', 'a bidirectional isolate', '\\u2066'],
  ['a pop directional isolate', '\u2069', 'U+2069', 'a bidirectional isolate', '\\u2069'],
  ['the first noncharacter of the Arabic block', '\uFDD0', 'U+FDD0', 'a noncharacter', '\\uFDD0'],
  ['the last noncharacter of the Arabic block', '\uFDEF', 'U+FDEF', 'a noncharacter', '\\uFDEF'],
  ['U+FFFE', '\uFFFE', 'U+FFFE', 'a noncharacter', '\\uFFFE'],
  ['U+FFFF', '\uFFFF', 'U+FFFF', 'a noncharacter', '\\uFFFF'],
  ['U+1FFFF, a noncharacter outside the first plane', '\u{1FFFF}', 'U+1FFFF', 'a noncharacter', '\\uD83F\\uDFFF'],
  ['U+10FFFE, in the last plane', '\u{10FFFE}', 'U+10FFFE', 'a noncharacter', '\\uDBFF\\uDFFE'],
  ['a lone high surrogate', '\uD800', 'U+D800', 'a lone surrogate, half of a UTF-16 pair', '\\uD800'],
  ['a lone low surrogate', '\uDFFF', 'U+DFFF', 'a lone surrogate, half of a UTF-16 pair', '\\uDFFF'],
];

const OTHERS_IN_PROSE =
  'any other control character (line breaks may stay), bidirectional override, embedding or isolate, noncharacter or lone surrogate';
const OTHERS_IN_A_NAME =
  'any other control character or line break, bidirectional control (override, embedding, isolate or mark), noncharacter or lone surrogate';

/** Each text field with the character put inside it, the field the problem names, and the place it gives. */
const TEXT_FIELDS: [
  field: string,
  withCharacter: (character: string) => Record<string, unknown>,
  place: string,
  others: string,
][] = [
  ['summary', (c) => ({ summary: `Reset ${c} now` }), 'at character 7, after "Reset "', OTHERS_IN_PROSE],
  ['sourceAccount', (c) => ({ sourceAccount: `acct${c}x` }), 'at character 5, after "acct"', OTHERS_IN_A_NAME],
  ['audience.1', (c) => ({ audience: ['pro', `te${c}am`] }), 'at character 3, after "te"', OTHERS_IN_A_NAME],
  [
    'sourceUrl',
    (c) => ({ sourceUrl: `https://posts.provider-a.example/1${c}` }),
    'at character 35, after "-a.example/1"',
    OTHERS_IN_A_NAME,
  ],
];

describe('validateEventFiles: the characters of text fields', () => {
  const path = `provider_a/${goodEvent.id}.json`;

  describe.each(TEXT_FIELDS)('in %s', (field, withCharacter, place, others) => {
    it.each(REFUSED_CHARACTERS)(
      'refuses %s, naming the file, the field, the code point and its place',
      (_, character, codePoint, what, written) => {
        // JSON.stringify writes a lone surrogate as its \u escape, as a file holding one must.
        const file = eventFile(withCharacter(character));
        const result = validateEventFiles([file], NOW);
        expect(result.events).toEqual([]);
        expect(result.problems).toEqual([
          {
            file: path,
            field,
            message: `holds ${codePoint} (${what}) ${place}`,
            fix: `delete ${codePoint} (in the JSON it may be written ${written}; most editors show it as nothing at all), and ${others}`,
          },
        ]);
      },
    );
  });

  it('refuses the three files users met: controls and an override in sourceAccount, U+FFFF in summary', () => {
    const files = [
      eventFile({ id: 'controls', sourceAccount: 'provider_a\u0000\u001B[31m' }, 'provider_a/controls.json'),
      eventFile({ id: 'override', sourceAccount: '\u202Emaet_a_redivorp' }, 'provider_a/override.json'),
      eventFile({ id: 'ffff', summary: 'Limits reset\uFFFF for everyone.' }, 'provider_a/ffff.json'),
    ];
    const { events, problems } = validateEventFiles(files, NOW);
    expect(events).toEqual([]);
    expect(problems.map((problem) => formatContentProblem(problem, 'content/events'))).toEqual([
      'content/events/provider_a/controls.json → sourceAccount: holds U+0000 (a control character) at character 11, after "provider_a" (and 1 more such character)\n' +
        `    fix: delete U+0000 (in the JSON it may be written \\u0000; most editors show it as nothing at all), and ${OTHERS_IN_A_NAME}`,
      'content/events/provider_a/ffff.json → summary: holds U+FFFF (a noncharacter) at character 13, after "Limits reset"\n' +
        `    fix: delete U+FFFF (in the JSON it may be written \\uFFFF; most editors show it as nothing at all), and ${OTHERS_IN_PROSE}`,
      'content/events/provider_a/override.json → sourceAccount: holds U+202E (a bidirectional embedding or override) at character 1, the first\n' +
        `    fix: delete U+202E (in the JSON it may be written \\u202E; most editors show it as nothing at all), and ${OTHERS_IN_A_NAME}`,
    ]);
  });

  it('reports a sourceUrl once: the refused character, not also the URL rule', () => {
    expect(problemsOf([eventFile({ sourceUrl: 'javascript:alert(1)\u202E' })])).toEqual([
      expect.objectContaining({ field: 'sourceUrl', message: expect.stringMatching(/^holds U\+202E/) }),
    ]);
  });

  it('keeps summaries on several lines valid (LF, CRLF, CR), and the marks right-to-left text needs', () => {
    for (const summary of [
      'First line\nSecond line',
      'First line\r\nSecond line\r\n\r\nAfter a blank line',
      'Old Mac\rline breaks',
      '\n=HYPERLINK("https://evil.example")\n',
      'إعادة تعيين \u200F(Pro)\u200F — איפוס \u200E· \u061Cمرحبا',
      '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🚀 👩‍👩‍👧 𠀀 \u{10FFFD} \uFFFD \uE000 \u00A0',
    ]) {
      expect(problemsOf([eventFile({ summary })]), JSON.stringify(summary)).toEqual([]);
    }
  });

  it('keeps right-to-left letters and astral characters valid in names, without marks or line breaks', () => {
    expect(problemsOf([eventFile({ sourceAccount: 'حساب_🚀', audience: ['פרו', '𝔱𝔢𝔞𝔪'] })])).toEqual([]);
    expect(problemsOf([eventFile({ sourceAccount: 'acct\u200F' })])).toEqual([
      expect.objectContaining({
        field: 'sourceAccount',
        message: 'holds U+200F (a bidirectional mark) at character 5, after "acct"',
      }),
    ]);
    expect(problemsOf([eventFile({ audience: ['pro\r\nteam'] })])).toEqual([
      expect.objectContaining({
        field: 'audience.0',
        message: 'holds U+000D (a line break) at character 4, after "pro" (and 1 more such character)',
      }),
    ]);
  });

  it('shows the text before the character as JSON, line breaks escaped, at most 12 characters', () => {
    expect(problemsOf([eventFile({ summary: 'Line\nand "so" \u2067' })])).toEqual([
      expect.objectContaining({
        field: 'summary',
        message: 'holds U+2067 (a bidirectional isolate) at character 15, after "ne\\nand \\"so\\" "',
      }),
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
