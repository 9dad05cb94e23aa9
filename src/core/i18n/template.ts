/**
 * The one way words with placeholders are filled: a words file writes `{name}` where a value goes (plain data, so a
 * page script or a chat message can be handed the words as they are). Each literal part goes through `literal`,
 * each name is replaced by its value; a name without a value is a bug in a words file, and stops the build.
 */
export function fillTemplate<T>(
  template: string,
  values: Readonly<Record<string, T>>,
  literal: (text: string) => T,
): T[] {
  return template.split(/\{(\w+)\}/).map((part, index) => {
    if (index % 2 === 0) return literal(part);
    const value = values[part];
    if (value === undefined) throw new Error(`the words "${template}" name {${part}}, which has no value`);
    return value;
  });
}

/** The template filled with text, as one string. */
export const fillText = (
  template: string,
  values: Readonly<Record<string, string>>,
  literal: (text: string) => string = (text) => text,
): string => fillTemplate(template, values, literal).join('');
