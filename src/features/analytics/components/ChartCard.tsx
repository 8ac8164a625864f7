import { Suspense, startTransition, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Box, Card, CardContent, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../components/visuallyHidden';
import { formatNumber } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { ChartSizeContext, type ChartSize } from './chart-size';

export interface ChartTable {
  columns: string[];
  rows: Array<Array<string | number>>;
}

/**
 * Issue 13 (Lighthouse: the dashboard's main thread was blocked for seconds): a chart is drawn
 * once its card comes near the screen, when the browser is idle, so the figures and tables show
 * first and the charts below the fold cost nothing until scrolled to. The box keeps the chart's
 * height meanwhile (no layout shift). The chart is drawn at the box's measured size, set in a
 * transition: React renders a transition in ~5 ms slices, where a chart drawn by nivo's own
 * ResizeObserver (an urgent update) took one task of 100–300 ms. Without IntersectionObserver
 * (old browsers, jsdom) it is asked for at once.
 */
function DeferredChart({ height, children }: { height: number; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(() => typeof IntersectionObserver === 'undefined');
  const [size, setSize] = useState<ChartSize | null>(null);
  useEffect(() => {
    if (ready || !box.current) return;
    let idle: number | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        const show = () => startTransition(() => setReady(true));
        idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(show, { timeout: 1000 }) : window.setTimeout(show, 0);
      },
      { rootMargin: '200px' },
    );
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      if (idle !== undefined) (typeof cancelIdleCallback === 'function' ? cancelIdleCallback : window.clearTimeout)(idle);
    };
  }, [ready]);
  useEffect(() => {
    const element = box.current;
    if (!ready || !element) return;
    const measure = () => {
      const width = Math.floor(element.clientWidth);
      // A hidden or collapsed box draws nothing (nivo draws nothing at width 0 either).
      startTransition(() => setSize((previous) => (width <= 0 ? null : previous?.width === width && previous.height === height ? previous : { width, height })));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ready, height]);
  return (
    <Box ref={box} aria-hidden="true" sx={{ height }}>
      {ready && size && (
        <ChartSizeContext value={size}>
          <Suspense fallback={null}>{children}</Suspense>
        </ChartSizeContext>
      )}
    </Box>
  );
}

/**
 * A chart with its data as a table: the table is always in the page (visually hidden while the
 * chart shows, so screen readers read it); the toggle shows one or the other.
 */
export function ChartCard({ title, table, children, actions, height = 280 }: { title: string; table: ChartTable; children: ReactNode; actions?: ReactNode; height?: number }) {
  const { t } = useTranslation();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const headingId = useId();
  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId} sx={{ height: '100%' }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}>
          <Typography id={headingId} variant="h6" component="h2">
            {title}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {actions}
            <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, next) => next && setView(next)} aria-label={t('dashboard.view.label', { title })}>
              <ToggleButton value="chart">{t('dashboard.view.chart')}</ToggleButton>
              <ToggleButton value="table">{t('dashboard.view.table')}</ToggleButton>
            </ToggleButtonGroup>
          </Box>
        </Box>
        {view === 'chart' && <DeferredChart height={height}>{children}</DeferredChart>}
        <TableContainer sx={view === 'chart' ? visuallyHidden : { maxHeight: height + 120 }}>
          <Table size="small" aria-label={title} stickyHeader>
            <TableHead>
              <TableRow>
                {table.columns.map((column) => (
                  <TableCell key={column} scope="col">
                    {column}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {table.rows.map((row, index) => (
                <TableRow key={index}>
                  {row.map((cell, column) => (
                    <TableCell key={column} align={typeof cell === 'number' ? 'right' : 'left'}>
                      {typeof cell === 'number' ? formatNumber(cell, currentLanguage()) : cell}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </CardContent>
    </Card>
  );
}
