import { createContext, startTransition, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Box, Card, CardContent, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../components/visuallyHidden';
import { formatNumber } from '../../../engine/locale-format';
import { currentLanguage } from '../../../lib/i18n';
import { useTurn } from '../../../components/InTurn';
import { ChartSizeContext, type ChartSize } from './chart-size';
import { ToggleChoice } from './ToggleChoice';

export interface ChartTable {
  columns: string[];
  rows: Array<Array<string | number>>;
}

/** The charts' code (charts.tsx: nivo, about half of the dashboard's code). */
export type Charts = typeof import('./charts');

const ChartsContext = createContext<Charts | null>(null);

/**
 * Loads the charts' code once the page's figures show, and hands it to the charts inside. Not
 * through React.lazy: a lazy chart suspended, and React holds a Suspense reveal back
 * (up to 300 ms) to commit it with the others, which put every chart in one long task.
 */
export function ChartsCode({ children }: { children: ReactNode }) {
  const [charts, setCharts] = useState<Charts | null>(null);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  useEffect(() => {
    let current = true;
    import('./charts').then(
      (module) => current && startTransition(() => setCharts(module)),
      (error: unknown) => current && setFailure({ error }),
    );
    return () => {
      current = false;
    };
  }, []);
  // E3: code that fails to load (after a new deployment) goes to the page's error boundary, which offers a reload.
  if (failure) throw failure.error;
  return <ChartsContext value={charts}>{children}</ChartsContext>;
}

/**
 * A chart is drawn once its card comes near the screen, its code is loaded (ChartsCode) and its
 * turn has come (useTurn: the page's parts and charts are drawn one by one, each in a commit of
 * its own, when the browser is idle), so the figures and tables show first and the charts below
 * the fold cost nothing until scrolled to. The box keeps the chart's height meanwhile (no layout
 * shift). The chart is drawn at the box's measured size, set in a transition: React renders a
 * transition in ~5 ms slices, where a chart drawn by nivo's own ResizeObserver (an urgent update)
 * took one task of 100–300 ms. Without IntersectionObserver (old browsers, jsdom) it is asked for
 * at once.
 */
function DeferredChart({ height, draw }: { height: number; draw: (charts: Charts) => ReactNode }) {
  const charts = useContext(ChartsContext);
  const box = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(() => typeof IntersectionObserver === 'undefined');
  // Not measured yet (undefined); measured with nothing to draw in (null).
  const [size, setSize] = useState<ChartSize | null | undefined>(undefined);
  const turn = useTurn(visible && charts !== null, size !== undefined);
  useEffect(() => {
    if (visible || !box.current) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        setVisible(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(box.current);
    return () => observer.disconnect();
  }, [visible]);
  useEffect(() => {
    const element = box.current;
    if (!turn || !element) return;
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
  }, [turn, height]);
  return (
    <Box ref={box} aria-hidden="true" sx={{ height }}>
      {turn && charts && size && <ChartSizeContext value={size}>{draw(charts)}</ChartSizeContext>}
    </Box>
  );
}

const VIEWS = ['chart', 'table'] as const;

/**
 * A chart with its data as a table: the table is always in the page (visually hidden while the
 * chart shows, so screen readers read it); the toggle shows one or the other.
 */
export function ChartCard({
  title,
  table,
  chart,
  actions,
  height = 280,
}: {
  title: string;
  table: ChartTable;
  /** Draws the chart with the charts' code (ChartsCode). */
  chart: (charts: Charts) => ReactNode;
  actions?: ReactNode;
  height?: number;
}) {
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
            <ToggleChoice
              label={t('dashboard.view.label', { title })}
              options={VIEWS.map((option) => ({ value: option, label: t(`dashboard.view.${option}`) }))}
              value={view}
              onChange={setView}
            />
          </Box>
        </Box>
        {view === 'chart' && <DeferredChart height={height} draw={chart} />}
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
