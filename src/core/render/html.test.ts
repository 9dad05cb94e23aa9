import fc from 'fast-check';
import { parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trustedHtml } from './html.ts';

/** The text and the attributes of the first element of `markup`, as an HTML parser reads them. */
function firstElement(markup: string): { text: string; attributes: Record<string, string> } {
  const fragment = parseFragment(markup);
  const element = fragment.childNodes[0];
  if (element === undefined || !('attrs' in element)) throw new Error(`no element in ${markup}`);
  const text = element.childNodes.map((node) => ('value' in node ? node.value : '')).join('');
  return { text, attributes: Object.fromEntries(element.attrs.map(({ name, value }) => [name, value])) };
}

describe('html', () => {
  it('escapes every inserted text, so that a parser reads back exactly that text, in content and in attributes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (text, value) => {
        const parsed = firstElement(html`<p title="${value}">${text}</p>`.value);
        expect(parsed.text).toBe(text.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD'));
        expect(parsed.attributes).toEqual({ title: value.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD') });
      }),
    );
  });

  it('inserts HTML it made or was trusted with as it is, numbers as digits, and nothing for null, undefined, false', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(
      html`<p>${inner}${trustedHtml('<br>')}${3.5}${null}${undefined}${false}${['a', html`<s></s>`]}</p>`.value,
    ).toBe('<p><b>&lt;i&gt;</b><br>3.5a<s></s></p>');
  });

  it('escapes the five characters that can end text or a quoted attribute value', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });
});
