import { describe, expect, it } from 'vitest';
import { fillSlots, sliceTemplate, slotMarker, slotMarkers } from './slots.ts';

/** The filled page as text, or null: the test's own round trip through bytes. */
const filled = (template: string, slots: Record<string, string>): string | null => {
  const page = fillSlots(sliceTemplate(new TextEncoder().encode(template)), slots);
  return page === null ? null : new TextDecoder().decode(page);
};

describe('page slots', () => {
  it('are HTML comments named after the slot', () => {
    expect(slotMarker('board')).toBe('<!--slot:board-->');
    expect(slotMarkers(['board', 'status-text'])).toEqual({
      board: '<!--slot:board-->',
      'status-text': '<!--slot:status-text-->',
    });
  });

  it('fill each marker once with its slot, taking the slot literally and never reading markers inside it', () => {
    const template = '<main><!--slot:a--><p>x</p><!--slot:b--></main>';
    expect(filled(template, { a: '<b>$& $1 $$</b>', b: '<!--slot:a-->' })).toBe(
      '<main><b>$& $1 $$</b><p>x</p><!--slot:a--></main>',
    );
    expect(filled('<p>none</p>', {})).toBe('<p>none</p>');
  });

  it('keep every other byte as it is: text in any script, other comments, and a marker at either end', () => {
    const template = '<!--slot:a--><!-- note --><p>¡Hola! 重置了!</p><!DOCTYPE x><!--slot:-><!--slot:b-->';
    expect(filled(template, { a: 'ß', b: '→' })).toBe('ß<!-- note --><p>¡Hola! 重置了!</p><!DOCTYPE x><!--slot:->→');
  });

  it('refuse a template that lacks a slot, repeats one or holds a marker no slot fills', () => {
    expect(filled('<!--slot:a-->', { a: '1', b: '2' })).toBeNull();
    expect(filled('<!--slot:a--><!--slot:a-->', { a: '1' })).toBeNull();
    expect(filled('<!--slot:a--><!--slot:c-->', { a: '1' })).toBeNull();
  });
});
