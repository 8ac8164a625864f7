import { BarCanvas } from '@nivo/bar';
import { Line, LineCanvas } from '@nivo/line';
import { PieCanvas } from '@nivo/pie';
import { TREND_CANVAS_ABOVE } from '../../../engine/analytics';
import type { TrendPoint } from '../../../engine/schemas/analytics';
import { useChartSize } from './chart-size';

// The dashboard's nivo charts (only the dashboard page imports this module, so nivo stays in
// its lazy chunk). Above TREND_CANVAS_ABOVE points the trend is drawn on a canvas. Each chart
// takes the size its ChartCard measured (chart-size.ts) instead of nivo's Responsive* wrappers.
// Short main-thread tasks (TBT): the breakdowns are drawn on a canvas: the SVG bars and pie mounted a
// react-spring value per bar, label and tick (even without animation), 40–140 ms per chart's
// commit under Lighthouse. Their text alternative is the card's table, as for every chart (the
// chart's box is hidden from assistive technology); the tooltips stay.

export interface Slice {
  id: string;
  label: string;
  value: number;
}

/** At most ~12 labelled ticks on the time axis. */
function tickValues(points: TrendPoint[]): string[] {
  const step = Math.max(1, Math.ceil(points.length / 12));
  return points.filter((_, index) => index % step === 0).map((point) => point.label);
}

export function TrendChart({ points, leadsLabel, formatValue }: { points: TrendPoint[]; leadsLabel: string; formatValue: (value: number) => string }) {
  const size = useChartSize();
  const data = [{ id: leadsLabel, data: points.map((point) => ({ x: point.label, y: point.leads })) }];
  const ticks = tickValues(points);
  const rotate = ticks.length * Math.max(...ticks.map((label) => label.length), 1) > 60;
  const common = {
    data,
    // Few labels fit level; many are turned, with room below and on the left for the first
    // one's turned text (a cut label was LA2's complaint).
    margin: { top: 10, right: rotate ? 30 : 50, bottom: rotate ? 80 : 40, left: rotate ? 80 : 50 },
    xScale: { type: 'point' as const },
    yScale: { type: 'linear' as const, min: 0, max: 'auto' as const },
    axisBottom: { tickRotation: rotate ? -35 : 0, tickValues: ticks, tickPadding: 6 },
    axisLeft: { tickSize: 4, format: (value: number) => (Number.isInteger(value) ? formatValue(value) : '') },
    yFormat: (value: number | string | Date) => formatValue(Number(value)),
    enableGridX: false,
    colors: ['#1565c0'],
    pointSize: points.length > 60 ? 0 : 6,
    isInteractive: true,
    // No enter animation (react-spring frames kept the main thread busy for seconds).
    animate: false,
  };
  if (!size) return null;
  if (points.length > TREND_CANVAS_ABOVE) return <LineCanvas {...common} {...size} />;
  return <Line {...common} {...size} useMesh enableSlices={false} />;
}

export function BarBreakdown({ slices, horizontal = true, formatValue }: { slices: Slice[]; horizontal?: boolean; formatValue: (value: number) => string }) {
  const size = useChartSize();
  // Horizontal bars read top to bottom, largest first.
  const data = (horizontal ? [...slices].reverse() : slices).map((slice) => ({ key: slice.label, leads: slice.value }));
  if (!size) return null;
  return (
    <BarCanvas
      {...size}
      data={data}
      keys={['leads']}
      indexBy="key"
      layout={horizontal ? 'horizontal' : 'vertical'}
      margin={{ top: 10, right: 20, bottom: 30, left: horizontal ? 130 : 40 }}
      padding={0.3}
      colors={['#2e7d32']}
      // nivo's default label colour (#333) on this green was dark on dark (1.9:1); white is 5.1:1.
      labelTextColor="#ffffff"
      enableGridY={!horizontal}
      enableGridX={horizontal}
      labelSkipWidth={16}
      axisLeft={{ tickSize: 0, tickPadding: 6 }}
      valueFormat={formatValue}
      axisBottom={{ format: (value: number) => (Number.isInteger(value) ? formatValue(value) : '') }}
    />
  );
}

const TEMPERATURE_COLOURS: Record<string, string> = { cold: '#64b5f6', warm: '#ffb74d', hot: '#e53935', '': '#bdbdbd' };

export function PieBreakdown({ slices, formatValue }: { slices: Slice[]; formatValue: (value: number) => string }) {
  const size = useChartSize();
  if (!size) return null;
  return (
    <PieCanvas
      {...size}
      data={slices.filter((slice) => slice.value > 0)}
      margin={{ top: 20, right: 100, bottom: 20, left: 100 }}
      innerRadius={0.5}
      padAngle={1}
      cornerRadius={3}
      colors={(datum) => TEMPERATURE_COLOURS[String(datum.id)] ?? '#90a4ae'}
      // The translated label, not the stored code (and "not set" for the unqualified slice).
      arcLinkLabel={(datum) => String(datum.label)}
      arcLinkLabelsSkipAngle={8}
      arcLabelsSkipAngle={12}
      valueFormat={formatValue}
      // Black reads at 5:1 or more on every temperature colour (nivo's #333 was 3:1 on hot red).
      arcLabelsTextColor="#000000"
    />
  );
}
