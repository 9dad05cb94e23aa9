import { describe, expect, it } from 'vitest';
import { TRANSLATIONS } from '../i18n/index.ts';
import { MCP_INSTRUCTIONS, mcpInstructions, SHOULD_I_WAIT } from './catalogue.ts';

/**
 * What MCP's own words tell an agent (decisions.md, "One honest answer"), read as the agent reads them: the
 * instructions with real data and with the sample set, and the `should-i-wait` prompt.
 */

const TEXTS = [
  ['the instructions', MCP_INSTRUCTIONS],
  ['the instructions over the sample set', mcpInstructions(true)],
  ['the prompt', SHOULD_I_WAIT.text('provider_a', 'Provider A')],
] as const;

describe('one answer to "when"', () => {
  it.each(TEXTS)('%s never tell an agent to say "any time now"', (_name, text) => {
    // Named only as what not to say.
    expect(text.replace('never "any time now", "due" or "late"', '')).not.toMatch(/any time now/i);
  });

  it.each(TEXTS)(
    '%s read a past nextEstimate as a passed cadence estimate, and send "when" to get_forecast',
    (_name, text) => {
      expect(text).toContain('A nextEstimate in the past means only that the cadence estimate has passed');
      expect(text).toContain('"passed" with its date');
      expect(text).toMatch(/For when a reset may come, use get_forecast: .*likelyWindow and its chances/);
      expect(text).toContain('not a vendor schedule');
    },
  );
});

describe('the sample set', () => {
  it('the instructions open with the site’s notice over the sample set, and never say it with real data', () => {
    const notice = TRANSLATIONS.en.sampleDataNotice;
    expect(mcpInstructions(true)).toBe(`${notice} ${MCP_INSTRUCTIONS}`);
    expect(mcpInstructions(false)).toBe(MCP_INSTRUCTIONS);
    expect(MCP_INSTRUCTIONS).not.toMatch(/fictional|sample data/i);
  });
});
