import { createContext, useContext } from 'react';

/**
 * The size of the box a dashboard chart is drawn in, measured by ChartCard. nivo's Responsive*
 * wrappers measure it themselves and redraw from a ResizeObserver callback, an urgent update
 * that React renders in one task; ChartCard sets it in a transition instead (TBT).
 */
export interface ChartSize {
  width: number;
  height: number;
}

export const ChartSizeContext = createContext<ChartSize | null>(null);

export const useChartSize = () => useContext(ChartSizeContext);
