import { Box } from '@mui/material';
import { Templates } from '@rjsf/mui';
import type { ArrayFieldItemTemplateProps } from '@rjsf/utils';

// An item of a list in a generated form (a badge, a product), as rjsf's MUI theme draws it, in a
// box the browser lays out and paints only near the screen (`content-visibility: auto`): a list of
// 200 badges is some 1,600 fields, and laying them all out made the first paint of a long form and
// every frame while typing cost in proportion to the list. The items stay in the page (in the
// accessibility tree, reached with Tab, found by the browser's find in page, which brings an item
// on screen); until it has been on screen an item takes an estimated height (`contain-intrinsic-size`),
// then the height it last had.
//
// The estimate must be the item's real height: an item laid out as it comes near the screen and
// growing from a wrong estimate pushes what is below it, so a button scrolled into view (Submit
// under the list, the next section's fields) moved off the screen a frame later, with its focus
// ring (WCAG 2.2 SC 2.4.11), and a click landed on another control. The items of a list share
// their fields, so each list takes the height of its items last laid out, measured by one
// ResizeObserver and set on the list as a custom property; a fixed guess stands until the first
// item of the list is measured (the items on screen at the first paint are). The browser's scroll
// anchoring did not keep the button in place (Chromium): it makes up only for what grows above
// its anchor, a node near the top of the screen, and the items on screen grow below it.

const MuiArrayFieldItemTemplate = Templates.ArrayFieldItemTemplate!;

/** The estimated height of an item before any item of its list has been laid out: a badge of S04 on a desktop screen. */
const FIRST_ESTIMATE = '420px';
/** The custom property on a list's element holding the height of its items last laid out. */
const ITEM_HEIGHT_PROPERTY = '--rjsf-list-item-height';

let itemObserver: ResizeObserver | undefined;

/** The height of an item laid out (not one skipped off screen, which has its estimate) becomes its list's estimate. */
function recordItemHeights(entries: ResizeObserverEntry[]) {
  for (const entry of entries) {
    const item = entry.target as HTMLElement;
    const content = item.firstElementChild;
    const list = item.parentElement;
    // The item's content is visible only while the item is laid out (checkVisibility is false inside a skipped box).
    if (!content || !list || typeof content.checkVisibility !== 'function' || !content.checkVisibility({ contentVisibilityAuto: true })) continue;
    const height = `${entry.borderBoxSize[0]?.blockSize ?? item.getBoundingClientRect().height}px`;
    if (list.style.getPropertyValue(ITEM_HEIGHT_PROPERTY) !== height) list.style.setProperty(ITEM_HEIGHT_PROPERTY, height);
  }
}

/** Measures the item while it is in the page (a React 19 ref callback: its return value is the cleanup). */
function measureItem(item: HTMLDivElement | null) {
  if (!item || typeof ResizeObserver === 'undefined') return;
  itemObserver ??= new ResizeObserver(recordItemHeights);
  const observer = itemObserver;
  observer.observe(item);
  return () => observer.unobserve(item);
}

/** A plain function component, as rjsf 6.11 on React 19 expects of templates. */
export function ArrayItemTemplate(props: ArrayFieldItemTemplateProps) {
  return (
    <Box ref={measureItem} className="rjsf-array-item" sx={{ contentVisibility: 'auto', containIntrinsicSize: `auto var(${ITEM_HEIGHT_PROPERTY}, ${FIRST_ESTIMATE})` }}>
      <MuiArrayFieldItemTemplate {...props} />
    </Box>
  );
}
