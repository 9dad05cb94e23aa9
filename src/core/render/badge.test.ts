import { parseXml, XmlElement } from '@rgrove/parse-xml';
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
    // A strict parser: anything that is not well-formed XML throws.
    const root = parseXml(svg).root;
    expect(root?.name).toBe('svg');
    const title = root?.children.find(
      (node): node is XmlElement => node instanceof XmlElement && node.name === 'title',
    );
    expect(title?.text).toBe('A <b> & "c": waiting');
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
