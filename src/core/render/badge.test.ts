import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { deriveProviderStatus } from '../board.ts';
import { NOW, resetDaysAgo } from '../test-events.ts';
import { badgeContent, renderBadgeSvg, renderShieldsEndpoint } from './badge.ts';

describe('badges', () => {
  const content = badgeContent(deriveProviderStatus('provider_a', [resetDaysAgo(0.5)], NOW));

  it('names the provider and its status word', () => {
    expect(content).toEqual({ label: 'Provider A', message: 'reset now', colour: '1a7f37' });
  });

  it('is an SVG a parser reads, with its text escaped', () => {
    const svg = renderBadgeSvg({ label: 'A <b> & "c"', message: 'waiting', colour: '57606a' });
    expect(XMLValidator.validate(svg)).toBe(true);
    const parsed = new XMLParser({ htmlEntities: true }).parse(svg) as { svg: { title: string } };
    expect(parsed.svg.title).toBe('A <b> & "c": waiting');
    expect(svg).not.toContain('<b>');
  });

  it('is a shields.io endpoint document', () => {
    expect(renderShieldsEndpoint(content)).toEqual({
      schemaVersion: 1,
      label: 'Provider A',
      message: 'reset now',
      color: '1a7f37',
      cacheSeconds: 60,
    });
  });
});
