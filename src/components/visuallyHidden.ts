/**
 * Hidden from sight, read by screen readers: a text alternative (a chart's table) or the words an
 * icon-only control stands for, so its accessible name comes from its content.
 */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
