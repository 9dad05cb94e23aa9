import { describe, expect, it } from 'vitest';
import { EventSchema } from '../schemas.ts';
import { makeEvent } from '../test-events.ts';
import { hasEventFrame } from './event-frame.ts';

describe('a journal row’s event frame', () => {
  const event = makeEvent({ id: 'framed', effectiveAt: '2026-06-16T00:00:00.000Z' });

  it('takes an event the schema takes, under its own id', () => {
    expect(EventSchema.safeParse(event).success).toBe(true);
    expect(hasEventFrame(JSON.parse(JSON.stringify(event)), 'framed')).toBe(true);
    expect(hasEventFrame({ ...event, effectiveAt: null }, 'framed')).toBe(true);
  });

  it('leaves out another id, a draft, an unknown provider or kind, a missing field, and what is no object', () => {
    expect(hasEventFrame(event, 'other')).toBe(false);
    expect(hasEventFrame({ ...event, verified: false }, 'framed')).toBe(false);
    expect(hasEventFrame({ ...event, provider: 'provider_z' }, 'framed')).toBe(false);
    expect(hasEventFrame({ ...event, kind: 'outage' }, 'framed')).toBe(false);
    const { summary: _summary, ...withoutSummary } = event;
    expect(hasEventFrame(withoutSummary, 'framed')).toBe(false);
    expect(hasEventFrame({ ...event, announcedAt: 17 }, 'framed')).toBe(false);
    for (const value of [null, [], 'framed', undefined]) expect(hasEventFrame(value, 'framed')).toBe(false);
  });
});
