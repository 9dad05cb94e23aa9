import { describe, expect, it } from 'vitest';
import { deriveBoard } from '../board.ts';
import { makeEvent, NOW, resetsWithGaps } from '../test-events.ts';
import { renderStatusText } from './status-text.ts';

describe('renderStatusText', () => {
  it('writes one line per provider: id, status word, days to one decimal, estimate; `-` for a null', () => {
    const events = [
      // Gaps of 6 to 9 days (median 7.5), the last reset 2.04 days ago: next at 2.04 days ago + 7.5 days.
      ...resetsWithGaps([7, 8, 6, 9], 2.04),
      makeEvent({ provider: 'provider_c', kind: 'boost', announcedAt: '2026-06-10T08:00:00.000Z' }),
    ];
    expect(renderStatusText(deriveBoard(events, NOW).providers)).toBe(
      [
        'provider_a\twaiting\t2.0\t2026-06-20T23:02:24.000Z\n',
        'provider_b\tno_data\t-\t-\n',
        'provider_c\twaiting\t-\t-\n',
      ].join(''),
    );
  });

  it('rounds the days to the nearest tenth, and writes nothing for no providers', () => {
    const events = resetsWithGaps([7, 8, 6, 9], 3.96);
    expect(renderStatusText(deriveBoard(events, NOW).providers.slice(0, 1))).toMatch(/^provider_a\twaiting\t4\.0\t/);
    expect(renderStatusText([])).toBe('');
  });
});
