import { searchFold } from '../../engine/search';

// Lists searched in the server (the organiser's exhibitors and progress matrix) fold every
// exhibitor's name, code, booth, account and e-mail on each search: 30,000 texts at a big show.
// A text's fold never changes, so the folds are kept by text (a pure function's results: nothing
// to forget when a row changes, a changed row simply has a new text). Bounded: emptied when full.

const FOLDED = new Map<string, string>();
const MAX_TEXTS = 50_000;

/** searchFold(text), computed once per distinct text. */
export function foldedText(text: string): string {
  let folded = FOLDED.get(text);
  if (folded === undefined) {
    folded = searchFold(text);
    if (FOLDED.size >= MAX_TEXTS) FOLDED.clear();
    FOLDED.set(text, folded);
  }
  return folded;
}
