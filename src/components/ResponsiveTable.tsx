import type { ReactNode } from 'react';
import { Box, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography, useMediaQuery } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import { Pagination, type PaginationProps } from './Pagination';

/** Below this width a list shows each row as a card: a phone cannot show a table's columns. */
export const CARDS_BELOW_QUERY = '(max-width:599.95px)';

type RowProps = { onClick?: () => void; 'aria-label'?: string; hover?: boolean; selected?: boolean; sx?: SxProps<Theme> };

export interface ResponsiveColumn<Row> {
  key: string;
  /** The column's name: the table's heading and the card's label. */
  label: string;
  /** The table's heading cell content when it is more than the label (a sort control). */
  header?: ReactNode;
  sortDirection?: 'asc' | 'desc' | false;
  cell: (row: Row) => ReactNode;
  /** The row's name (opening it): the card's title. */
  primary?: boolean;
  /** The row's actions: at the card's foot, without a label. */
  actions?: boolean;
  /** False: a detail left out of the phone's card, which keeps the row's name, key details and actions. */
  phone?: boolean;
  /** Numbers and actions line up on the right of a table. */
  align?: 'left' | 'right';
  /** The table cell's look (the phone's card shows the content alone). */
  cellSx?: SxProps<Theme>;
  /** The table's row header (`th scope="row"`): the cell a screen reader names the row by. */
  rowHeader?: boolean;
}

/**
 * Y8: a list as a table on wide screens and as one card per row below 600 px, so that a row's
 * name, its status and its actions stay on a phone's screen rather than in columns scrolled away.
 * The columns are data (label, cell, what stays on a phone); a paged list passes its page and the
 * pager follows the rows.
 */
export function ResponsiveTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  title,
  size,
  outlined = true,
  sx,
  rowProps,
  paging,
}: {
  label: string;
  columns: ResponsiveColumn<Row>[];
  rows: readonly Row[];
  /** The row's React key; a list of rows without an identity of their own (problems) keys by position. */
  rowKey: (row: Row, index: number) => string | number;
  /** Shown instead of the rows when there are none. */
  empty?: ReactNode;
  /** A heading above the list (inside its frame). */
  title?: ReactNode;
  size?: 'small' | 'medium';
  outlined?: boolean;
  sx?: SxProps<Theme>;
  /** Extra properties of a table row (a click that opens it, a name, the row in use marked). */
  rowProps?: (row: Row) => RowProps;
  /** The page shown and where a change goes: the pager under the list. */
  paging?: PaginationProps;
}) {
  const list = <ListView label={label} columns={columns} rows={rows} rowKey={rowKey} empty={empty} title={title} size={size} outlined={outlined} sx={sx} rowProps={rowProps} />;
  if (!paging) return list;
  return (
    <>
      {list}
      <Pagination {...paging} />
    </>
  );
}

function ListView<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  title,
  size,
  outlined,
  sx,
  rowProps,
}: {
  label: string;
  columns: ResponsiveColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  empty?: ReactNode;
  title?: ReactNode;
  size?: 'small' | 'medium';
  outlined: boolean;
  sx?: SxProps<Theme>;
  rowProps?: (row: Row) => RowProps;
}) {
  const cards = useMediaQuery(CARDS_BELOW_QUERY, { noSsr: true });
  if (cards) {
    const primary = columns.find((column) => column.primary);
    const details = columns.filter((column) => !column.primary && !column.actions && column.phone !== false);
    const actions = columns.filter((column) => column.actions);
    return (
      <Box sx={sx}>
        {title}
        {rows.length === 0 && empty && <Typography sx={{ py: 1 }}>{empty}</Typography>}
        <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
          {rows.map((row, index) => (
            <Paper component="li" key={rowKey(row, index)} variant="outlined" aria-label={rowProps?.(row)['aria-label']} sx={{ p: 1.5, minWidth: 0 }}>
              {primary && <Box sx={{ fontWeight: 600, mb: 0.5, overflowWrap: 'anywhere' }}>{primary.cell(row)}</Box>}
              <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(5rem, auto) 1fr', columnGap: 1.5, rowGap: 0.5, m: 0 }}>
                {details.map((column) => (
                  <Box key={column.key} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {column.label}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                      {column.cell(row)}
                    </Typography>
                  </Box>
                ))}
              </Box>
              {actions.map((column) => (
                <Box key={column.key} sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                  {column.cell(row)}
                </Box>
              ))}
            </Paper>
          ))}
        </Box>
      </Box>
    );
  }
  return (
    <TableContainer component={outlined ? Paper : 'div'} variant={outlined ? 'outlined' : undefined} sx={sx}>
      {title}
      <Table size={size} aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column.key} sortDirection={column.sortDirection} align={column.align}>
                {column.header ?? column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 && empty && (
            <TableRow>
              <TableCell colSpan={columns.length}>{empty}</TableCell>
            </TableRow>
          )}
          {rows.map((row, index) => {
            const extra = rowProps?.(row) ?? {};
            return (
              <TableRow key={rowKey(row, index)} {...extra}>
                {columns.map((column) => (
                  <TableCell
                    key={column.key}
                    align={column.align}
                    {...(column.rowHeader ? { component: 'th', scope: 'row' } : {})}
                    sx={column.cellSx ?? (column.primary ? { fontWeight: 600 } : undefined)}
                  >
                    {column.cell(row)}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
