import { type DefaultTreeAdapterTypes, parse } from 'parse5';

/**
 * Markup rules the Nu HTML Checker enforces (`npm run audit:html`, which needs Java), checked here with a real
 * HTML parser (parse5, the WHATWG parsing algorithm) so that `npm test` catches the same mistakes on a machine
 * with Node only: the parser's own errors, a `figure` whose `figcaption` is neither its first nor its last
 * child (HTML, "the figure element"), an empty `href`, and an `a` without `href` that carries attributes only
 * a hyperlink may have (HTML, "the a element").
 */

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document;
type Element = DefaultTreeAdapterTypes.Element;

/** Attributes an `a` must omit when it has no `href` (a placeholder link). */
const HYPERLINK_ONLY = ['target', 'download', 'ping', 'rel', 'hreflang', 'type', 'referrerpolicy'];

const isElement = (node: Node): node is Element => 'tagName' in node;
/** An attribute of `element` (its `value`), or undefined. */
export const attribute = (element: Element, name: string) => element.attrs.find((attr) => attr.name === name);
/** Where the element starts, and its id: the pages are minified to a line or two, so the column matters. */
function at(element: Element): string {
  const { startLine = 0, startCol = 0 } = element.sourceCodeLocation ?? {};
  const id = attribute(element, 'id')?.value;
  return `${startLine}:${startCol} <${element.tagName}${id === undefined ? '' : ` id="${id}"`}>`;
}

/** The children that count as content: elements and text that is not only white space (not comments). */
function contentChildren(element: Element): DefaultTreeAdapterTypes.ChildNode[] {
  return element.childNodes.filter(
    (child) => isElement(child) || (child.nodeName === '#text' && 'value' in child && child.value.trim() !== ''),
  );
}

/** Every element of `node`, itself first, in document order (a template's content too). */
export function* elements(node: Node): Generator<Element> {
  if (isElement(node)) yield node;
  const children = 'childNodes' in node ? node.childNodes : [];
  for (const child of children) yield* elements(child);
  if (isElement(node) && node.tagName === 'template' && 'content' in node)
    yield* elements(node.content as unknown as Node);
}

function elementProblems(element: Element): string[] {
  const problems: string[] = [];
  const href = attribute(element, 'href');
  if (href !== undefined && href.value.trim() === '') problems.push(`${at(element)} has an empty href`);
  if (element.tagName === 'a' && href === undefined) {
    for (const name of HYPERLINK_ONLY.filter((candidate) => attribute(element, candidate) !== undefined))
      problems.push(`${at(element)} has ${name} but no href`);
  }
  if (element.tagName === 'figure') {
    const children = contentChildren(element);
    const captions = children.filter((child) => isElement(child) && child.tagName === 'figcaption');
    if (captions.length > 1) problems.push(`${at(element)} has ${captions.length} figcaptions`);
    const [caption] = captions;
    if (caption !== undefined && caption !== children[0] && caption !== children.at(-1))
      problems.push(`${at(element)} has content both before and after its figcaption`);
  }
  return problems;
}

/** Every problem of the document, each with its line; empty when the markup keeps the rules. */
export function markupProblems(html: string): string[] {
  const parseErrors: string[] = [];
  const document = parse(html, {
    sourceCodeLocationInfo: true,
    onParseError: (error) => parseErrors.push(`${error.startLine}:${error.startCol} parse error ${error.code}`),
  });
  return [...parseErrors, ...[...elements(document)].flatMap(elementProblems)];
}

/** How many elements of `tagName` the document has (to show that a rule had something to look at). */
export const countElements = (html: string, tagName: string): number =>
  [...elements(parse(html))].filter((element) => element.tagName === tagName).length;
