// The per-stage progress chart of Reviewer Status (@fluentui/react-charts,
// with d3): a module of its own, loaded only when a multi-stage period's
// progress is drawn, so the charting code stays out of the tab's first load.
import { HorizontalBarChart, HorizontalBarChartVariant, type ChartProps } from '@fluentui/react-charts';
import { tokens } from '@fluentui/react-components';
import { formatCount } from '../../components/layout/StatTile';

export type StageBar = { key: string; label: string; reached: number; decided: number };

/**
 * A bar per stage on one scale (the stage most rows reached is the full
 * width): the decided rows, then those still pending, so the stages compare.
 */
export function StageProgressChart({ bars }: { bars: readonly StageBar[] }) {
  const max = Math.max(1, ...bars.map((b) => b.reached));
  const data: ChartProps[] = bars.map((b) => ({
    chartTitle: b.label,
    chartData: [
      {
        legend: 'Decided',
        color: tokens.colorPaletteGreenForeground1,
        horizontalBarChartdata: { x: b.decided, total: max },
        yAxisCalloutData: `${formatCount(b.decided)} of ${formatCount(b.reached)} decided`,
      },
      {
        legend: 'Pending',
        color: tokens.colorPaletteDarkOrangeForeground1,
        horizontalBarChartdata: { x: b.reached - b.decided, total: max },
        yAxisCalloutData: `${formatCount(b.reached - b.decided)} pending`,
      },
    ],
  }));
  return <HorizontalBarChart data={data} variant={HorizontalBarChartVariant.AbsoluteScale} barHeight={12} />;
}
