// LIKE / ILIKE patterns built from what a user typed: its wildcards (%, _) and the escape
// character (\) are matched as themselves, so "50%" finds "50%" and not every text with "50".

/** The text with LIKE's wildcards and escape character escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A LIKE pattern for a text that contains `text`. */
export function containingPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
