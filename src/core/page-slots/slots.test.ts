import { describe, expect, it } from 'vitest';
import { fillSlots, slotMarker, slotMarkers } from './slots.ts';

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
    expect(fillSlots(template, { a: '<b>$& $1 $$</b>', b: '<!--slot:a-->' })).toBe(
      '<main><b>$& $1 $$</b><p>x</p><!--slot:a--></main>',
    );
    expect(fillSlots('<p>none</p>', {})).toBe('<p>none</p>');
  });

  it('refuse a template that lacks a slot, repeats one or holds a marker no slot fills', () => {
    expect(fillSlots('<!--slot:a-->', { a: '1', b: '2' })).toBeNull();
    expect(fillSlots('<!--slot:a--><!--slot:a-->', { a: '1' })).toBeNull();
    expect(fillSlots('<!--slot:a--><!--slot:c-->', { a: '1' })).toBeNull();
  });
});
