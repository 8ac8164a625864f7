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

const MuiArrayFieldItemTemplate = Templates.ArrayFieldItemTemplate!;

/** The estimated height of an item not yet laid out: a badge of S04 on a desktop screen. */
const ESTIMATED_ITEM_HEIGHT = '420px';

/** A plain function component, as rjsf 6.11 on React 19 expects of templates. */
export function ArrayItemTemplate(props: ArrayFieldItemTemplateProps) {
  return (
    <Box className="rjsf-array-item" sx={{ contentVisibility: 'auto', containIntrinsicSize: `auto ${ESTIMATED_ITEM_HEIGHT}` }}>
      <MuiArrayFieldItemTemplate {...props} />
    </Box>
  );
}
