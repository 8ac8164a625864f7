// CT3: search that finds what people type in any of the four languages. Text and keyword are
// folded the same way: compatibility forms (full-width letters, half-width kana) to their plain
// form, diacritics removed (Vietnamese "Nguyễn" → "nguyen", "đ" → "d"), lower case, spaces
// collapsed. CJK has no spaces, so a match is a plain substring of the folded text: a two-
// character Japanese or Chinese word finds the item that contains it.

const COMBINING_MARKS = /\p{M}+/gu;
const SPACES = /\s+/gu;

/** One character (code point) folded; may be empty (a lone combining mark) or longer. */
function foldChar(char: string): string {
  const code = char.charCodeAt(0);
  // ASCII has no decompositions or marks: only A–Z change (to lower case).
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : char;
  return char.normalize('NFKD').replace(COMBINING_MARKS, '').replace(/[đĐ]/gu, 'd').toLowerCase();
}

/**
 * foldChar for one text, remembering each character's fold: a text repeats few distinct
 * characters, and normalising each one again made snippets of long texts cost milliseconds.
 */
function charFolder(): (char: string) => string {
  const folds = new Map<string, string>();
  return (char) => {
    let piece = folds.get(char);
    if (piece === undefined) {
      piece = foldChar(char);
      folds.set(char, piece);
    }
    return piece;
  };
}

const NON_ASCII = /[\u0080-\uffff]/;
/**
 * Runs of what folding may change: ASCII capitals, and non-ASCII characters other than the CJK
 * unified ideographs of the basic block and extension A (no decomposition, no case, no mark: their
 * fold is themselves).
 */
const FOLDABLE_RUNS = /[A-Z]+|[\u0080-\u33ff\u4dc0-\u4dff\ua000-\u{10ffff}]+/gu;

/**
 * The text folded one character at a time (foldChar). Only capitals and non-ASCII characters
 * change, so ASCII text is lower-cased whole and mixed text folds only its runs of those: names,
 * companies and e-mails are mostly ASCII, and every stored lead, exhibitor and content text is
 * folded. Never `toLowerCase` of non-ASCII text as a whole: it lower-cases by context (a Greek
 * capital sigma at a word's end becomes "ς", alone "σ"), and stored texts were folded per character.
 */
export function searchFold(text: string): string {
  let folded: string;
  if (!NON_ASCII.test(text)) folded = text.toLowerCase();
  else {
    const fold = charFolder();
    folded = text.replace(FOLDABLE_RUNS, (run) => {
      if (run.charCodeAt(0) < 0x80) return run.toLowerCase();
      let out = '';
      for (const char of run) out += fold(char);
      return out;
    });
  }
  return folded.replace(SPACES, ' ').trim();
}

/** Keywords: at most this long once folded (longer input is cut, never an error). */
export const SEARCH_KEYWORD_MAX = 100;

/** The keyword as the search compares it, or '' when nothing searchable is left. */
export function searchKeyword(raw: string): string {
  return searchFold(raw).slice(0, SEARCH_KEYWORD_MAX);
}

export interface MatchRange {
  start: number;
  end: number;
}

/**
 * Where the keyword occurs in the original text (UTF-16 offsets), matched on folded text, so the
 * page can highlight "Nguyễn" for the keyword "nguyen".
 */
export function findMatches(text: string, keyword: string): MatchRange[] {
  const needle = searchKeyword(keyword);
  if (!needle) return [];
  // Folded text with, for each folded UTF-16 unit, the original range it came from.
  let folded = '';
  const origin: MatchRange[] = [];
  let offset = 0;
  let lastWasSpace = false;
  const fold = charFolder();
  for (const char of text) {
    let piece = fold(char);
    if (/^\s+$/u.test(piece)) {
      piece = lastWasSpace ? '' : ' ';
      lastWasSpace = true;
    } else if (piece) lastWasSpace = false;
    for (let i = 0; i < piece.length; i += 1) origin.push({ start: offset, end: offset + char.length });
    folded += piece;
    offset += char.length;
  }
  const ranges: MatchRange[] = [];
  for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + needle.length)) {
    const first = origin[at];
    const last = origin[at + needle.length - 1];
    if (first && last) ranges.push({ start: first.start, end: last.end });
  }
  return ranges;
}

/** A short piece of text around the first match (or the start), for a result line. */
export function snippetAround(text: string, keyword: string, length = 160): string {
  const plain = text.replace(SPACES, ' ').trim();
  const [first] = findMatches(plain, keyword);
  if (!first || plain.length <= length) return plain.slice(0, length);
  const start = Math.max(0, Math.min(first.start - Math.floor(length / 3), plain.length - length));
  return `${start > 0 ? '…' : ''}${plain.slice(start, start + length)}${start + length < plain.length ? '…' : ''}`;
}

/** A translated text in the wanted language, else the fallback (event default) language, else any. */
export function pickLanguage(texts: Record<string, string> | null | undefined, language: string, fallback: string): string {
  if (!texts) return '';
  return texts[language] || texts[fallback] || texts.en || Object.values(texts).find(Boolean) || '';
}

/** Markdown to plain text for searching and snippets (headings, emphasis, links, code marks out). */
export function markdownToPlain(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, ' ')
    .replace(/^[ \t]*(#{1,6}|>|[-*+]|\d+\.)[ \t]+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(SPACES, ' ')
    .trim();
}
