import { type Location, parse, type ValueNode } from '@humanwhocodes/momoa';
import type { ContentProblem } from './validate-event-files.ts';

/**
 * Duplicate keys in an event file. `JSON.parse` keeps the last of two equal keys without a word, so
 * `"verified": false, "verified": true` reads as a draft in a review and publishes. It cannot tell, so the file is
 * parsed again by Momoa (@humanwhocodes/momoa: the JSON parser of ESLint's JSON support, no dependencies, no I/O),
 * whose syntax tree keeps every member with its place. Keys are compared as JSON.parse reads them, so `"id"` and
 * `"\u0069d"` are one key. Only a text that `JSON.parse` accepted comes here: `JSON.parse` stays the judge of
 * the syntax and of its messages, and this finds what it hides.
 */

/** Keys that are plain words are shown as they are in a field path; any other as a JSON string. */
const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;
const pathSegment = (key: string | number): string =>
  typeof key === 'number' || PLAIN_KEY.test(key) ? String(key) : JSON.stringify(key);

/** Where each occurrence stands, as an editor counts: its lines; its columns when all are on one line; else line:column. */
function places(locations: readonly Location[]): string {
  const list = (items: readonly (number | string)[]) => `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
  const lines = locations.map((location) => location.line);
  if (new Set(lines).size === lines.length) return `lines ${list(lines)}`;
  if (new Set(lines).size === 1) return `line ${lines[0]}, columns ${list(locations.map((place) => place.column))}`;
  return list(locations.map((location) => `${location.line}:${location.column}`));
}

interface Duplicate {
  path: (string | number)[];
  key: string;
  at: Location[];
}

/** Every key that occurs more than once in one object, in the order of their first occurrence. */
function duplicatesIn(root: ValueNode): Duplicate[] {
  const found: Duplicate[] = [];
  // An explicit stack, not recursion: a deeply nested file must not be able to exhaust the call stack here.
  const stack: { node: ValueNode; path: (string | number)[] }[] = [{ node: root, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node.type === 'Array') {
      node.elements.forEach((element, index) => {
        stack.push({ node: element.value, path: [...path, index] });
      });
    } else if (node.type === 'Object') {
      const byKey = new Map<string, Location[]>();
      for (const member of node.members) {
        const key = member.name.type === 'String' ? member.name.value : member.name.name;
        byKey.set(key, [...(byKey.get(key) ?? []), member.name.loc.start]);
        stack.push({ node: member.value, path: [...path, key] });
      }
      for (const [key, at] of byKey) if (at.length > 1) found.push({ path: [...path, key], key, at });
    }
  }
  return found.sort((a, b) => a.at[0]!.offset - b.at[0]!.offset);
}

/**
 * How deep the arrays and objects of `json` (a text JSON.parse accepted) nest. Momoa's parser recurses, so a file
 * nested a few thousand levels deep (which JSON.parse reads, and 16 KiB hold) would exhaust the call stack at a
 * depth that depends on the machine; counting brackets outside strings first makes the refusal the same everywhere.
 */
function nestingDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < json.length; index += 1) {
    const character = json[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '[' || character === '{') deepest = Math.max(deepest, ++depth);
    else if (character === ']' || character === '}') depth -= 1;
  }
  return deepest;
}

/** Far more than an event needs (two levels: the object, its audience list), far less than a call stack holds. */
const MAX_NESTING = 32;

/** A problem for each key given twice or more in one object of `json`, which JSON.parse accepted. */
export function duplicateKeyProblems(file: string, json: string): ContentProblem[] {
  const depth = nestingDepth(json);
  if (depth > MAX_NESTING)
    return [
      {
        file,
        field: null,
        message: `nests ${depth} levels deep; an event nests two (the object, its audience list)`,
        fix: 'an event file holds one Event object: see docs/content.md for an example file',
      },
    ];
  return duplicatesIn(parse(json, { mode: 'json' }).body).map(({ path, key, at }) => ({
    file,
    field: path.map(pathSegment).join('.'),
    message: `duplicate key ${JSON.stringify(key)} (${places(at)}); JSON keeps only the last, so the file says one thing and publishes another`,
    fix: `keep one ${JSON.stringify(key)} and delete the ${at.length === 2 ? 'other' : 'others'}`,
  }));
}
