import type { Language } from '../../../engine/language';
import type { Strings } from '../../../engine/forms/patch-editor';
import { formTable } from './editor-api';

// F11: the preview follows typing. The server's preview comes with the draft's save (debounced,
// then a round trip); until it answers, the editor's current texts are laid over the last preview
// the server gave, so the texts being typed show at once. The server's answer to the save holds
// the same texts, so replacing the overlay with it changes nothing users see.

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `over` laid on `under`: nested tables merged key by key, a text of `over` replacing what `under` has there. Neither is changed. */
function layOver(under: unknown, over: Node): Node {
  const merged: Node = isNode(under) ? { ...under } : {};
  for (const [key, value] of Object.entries(over)) merged[key] = isNode(value) ? layOver(merged[key], value) : value;
  return merged;
}

/**
 * The preview's strings (the form's own table by language, as the server's preview has them) with
 * the editor's texts of the shown language laid over: the editor's text wins for each key it has,
 * every other text is the server's, other languages are the server's as they are. With no text of
 * the editor's in that language, the server's strings themselves (the same object) are answered.
 */
export function previewStrings(formId: string, server: Record<string, Node>, editor: Strings, language: Language): Record<string, Node> {
  const own = formTable(formId, editor, language);
  if (Object.keys(own).length === 0) return server;
  return { ...server, [language]: layOver(server[language], own) };
}
