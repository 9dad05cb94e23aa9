import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, serializeCalendar, utcBasic } from './serialize.ts';

const octets = (line: string) => new TextEncoder().encode(line).length;

describe('escapeText', () => {
  it.each([
    ['a,b', 'a\\,b'],
    ['a;b', 'a\\;b'],
    ['a\\b', 'a\\\\b'],
    ['one\ntwo\r\nthree\rfour', 'one\\ntwo\\nthree\\nfour'],
    ['plain: text', 'plain: text'],
  ])('%j → %j', (input, expected) => {
    expect(escapeText(input)).toBe(expected);
  });
});

describe('foldLine', () => {
  it.each([
    ['ASCII', `SUMMARY:${'x'.repeat(200)}`],
    ['Chinese (3 octets each)', `SUMMARY:${'供应商重置'.repeat(30)}`],
    ['emoji (4 octets each)', `SUMMARY:${'🚀'.repeat(60)}`],
    ['mixed', `DESCRIPTION:${'ab供🚀'.repeat(40)}`],
  ])('keeps every %s line within 75 octets without splitting a character', (_, line) => {
    const folded = foldLine(line);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const physical of lines) expect(octets(physical)).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((physical) => physical.startsWith(' '))).toBe(true);
    expect(lines.map((physical, index) => (index === 0 ? physical : physical.slice(1))).join('')).toBe(line);
  });

  it('leaves a short line alone', () => {
    expect(foldLine('VERSION:2.0')).toBe('VERSION:2.0');
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
  });
});

describe('utcBasic', () => {
  it('writes UTC in the basic format', () => {
    expect(utcBasic(Date.parse('2026-11-21T18:30:05.123Z'))).toBe('20261121T183005Z');
  });
});

describe('serializeCalendar', () => {
  it('writes what ical.js reads back, text unescaped to the letter', () => {
    const summary = 'Reset; for Pro, Max \\ Team\nsecond line — 供应商 A 🚀 '.repeat(3);
    const text = serializeCalendar({
      name: 'VCALENDAR',
      properties: [
        { name: 'VERSION', value: '2.0' },
        { name: 'PRODID', text: '-//Test//EN' },
      ],
      components: [
        {
          name: 'VEVENT',
          properties: [
            { name: 'UID', text: 'u@x' },
            { name: 'DTSTAMP', value: '20261121T183000Z' },
            { name: 'SUMMARY', text: summary },
          ],
        },
      ],
    });
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('summary')).toBe(summary);
  });
});
