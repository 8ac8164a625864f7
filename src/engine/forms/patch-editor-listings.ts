import { isMap, isSeq, parseDocument } from 'yaml';
import { type OptionalListing, optionalListingSchema } from '../schemas/optional-listing';
import type { TouchedReference } from './patch-editor';

// F11: the fix the editor offers when a change removes a question forms.yaml names in an approval
// summary or a document: the name is listed under that entry's `optional:` in the same draft, so
// this event's form may go without it (the summary or document then shows what the form has; the
// forms of events that keep the question are unchanged). The draft carries these listings beside
// its patch; saving and publishing apply them to forms.yaml's text, keeping its comments and order.

/** An entry pointer a listing may name, with the form's position in forms.yaml. */
const ENTRY = new RegExp(optionalListingSchema.properties.entry.pattern);

/** The listing that fixes a touched reference, or null when its declaration cannot list it (or already does). */
export function optionalListingOf(reference: TouchedReference): OptionalListing | null {
  if (reference.optional || !reference.optionable) return null;
  const entry = /^(\/forms\/\d+\/(?:approvalSummary|documents)\/\d+)\//.exec(reference.at)?.[1];
  const name = reference.name.split('.').at(-1);
  return entry && name ? { entry, name } : null;
}

/** Whether the listings make a touched reference optional. */
export const listedOptional = (listings: readonly OptionalListing[], reference: TouchedReference): boolean => {
  const fix = optionalListingOf(reference);
  return fix !== null && listings.some((listing) => listing.entry === fix.entry && listing.name === fix.name);
};

/** The touched references as the draft's listings leave them: a listed one is optional. */
export const withListings = (touched: readonly TouchedReference[], listings: readonly OptionalListing[]): TouchedReference[] =>
  touched.map((reference) => (listedOptional(listings, reference) ? { ...reference, optional: true } : reference));

/** Listings without repeats, in the order given. */
export function uniqueListings(listings: readonly OptionalListing[]): OptionalListing[] {
  const seen = new Set<string>();
  return listings.filter((listing) => {
    const key = `${listing.entry} ${listing.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The position in forms.yaml of the form a listing's entry belongs to, or null for a pointer that names no entry. */
export const listingFormIndex = (listing: OptionalListing): number | null => {
  const match = ENTRY.exec(listing.entry);
  return match ? Number(match[1]) : null;
};

/** A name a listing may add (the names forms.yaml entries use: a field's id). */
const NAME = new RegExp(optionalListingSchema.properties.name.pattern);

const insertAt = (text: string, at: number, added: string) => `${text.slice(0, at)}${added}${text.slice(at)}`;
/** The spaces a block node's line is indented by, up to the node (the column it starts at). */
const columnOf = (text: string, at: number) => at - (text.lastIndexOf('\n', at - 1) + 1);

/**
 * forms.yaml's text with the names listed under their entries' `optional:` (a name already listed
 * is left as it is). Only the entry's own text changes: the rest of the file keeps its comments,
 * order and layout, byte for byte. Answers the pointer of the first listing whose entry forms.yaml
 * does not have (or that names no plain name).
 */
export function applyListings(text: string, listings: readonly OptionalListing[]): { ok: true; text: string } | { ok: false; entry: string } {
  let changed = text;
  for (const listing of listings) {
    const match = ENTRY.exec(listing.entry);
    if (!match || !NAME.test(listing.name)) return { ok: false, entry: listing.entry };
    const node = parseDocument(changed).getIn(['forms', Number(match[1]), match[2]!, Number(match[3])], true);
    if (!isMap(node) || !node.range) return { ok: false, entry: listing.entry };
    const optional = node.get('optional', true);
    if (optional === undefined) {
      const pairs = node.items;
      if (node.flow) {
        const close = node.range[1] - 1;
        if (changed[close] !== '}') return { ok: false, entry: listing.entry };
        let at = close;
        while (changed[at - 1] === ' ') at -= 1;
        changed = insertAt(changed, at, `${pairs.length > 0 ? ', ' : ''}optional: [${listing.name}]`);
      } else {
        const last = pairs.at(-1);
        const end = (last?.value as { range?: [number, number, number] } | null)?.range?.[1];
        if (end === undefined) return { ok: false, entry: listing.entry };
        changed = insertAt(changed, end, `\n${' '.repeat(columnOf(changed, node.range[0]))}optional: [${listing.name}]`);
      }
    } else if (isSeq(optional) && optional.range) {
      if (optional.items.some((item) => String((item as { value?: unknown }).value) === listing.name)) continue;
      if (optional.flow) {
        const close = optional.range[1] - 1;
        if (changed[close] !== ']') return { ok: false, entry: listing.entry };
        changed = insertAt(changed, close, `${optional.items.length > 0 ? ', ' : ''}${listing.name}`);
      } else {
        const last = optional.items.at(-1) as { range?: [number, number, number] } | undefined;
        if (!last?.range) return { ok: false, entry: listing.entry };
        const dash = changed.lastIndexOf('-', last.range[0]);
        changed = insertAt(changed, last.range[1], `\n${' '.repeat(columnOf(changed, dash))}- ${listing.name}`);
      }
    } else return { ok: false, entry: listing.entry };
  }
  return { ok: true, text: changed };
}
