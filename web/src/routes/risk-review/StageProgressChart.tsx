// The per-stage progress chart of Reviewer Status (@fluentui/react-charts,
// with d3): a module of its own, loaded only when a multi-stage period's
// progress is drawn, so the charting code stays out of the tab's first load.
import { HorizontalBarChart, HorizontalBarChartVariant, type ChartProps } from '@fluentui/react-charts';
import { tokens } from '@fluentui/react-components';
import { formatCount } from '../../components/layout/StatTile';

export type StageBar = { key: string; label: string; reached: number; decided: number };

/**
 * A bar per stage: the share of the rows that reached it that are decided
 * (the rest of the bar pending), with 'decided/reached' beside it, so the
 * stages' progress compares at a glance however many rows each received.
 */
export function StageProgressChart({ bars }: { bars: readonly StageBar[] }) {
  const data: ChartProps[] = bars.map((b) => ({
    chartTitle: b.label,
    chartData: [
      {
        legend: 'Decided',
        color: tokens.colorPaletteGreenForeground1,
        horizontalBarChartdata: { x: b.decided, total: Math.max(1, b.reached) },
        yAxisCalloutData: `${formatCount(b.decided)} of ${formatCount(b.reached)} decided`,
      },
    ],
  }));
  // A stage nothing reached yet has an empty bar and no '0/1'.
  const hideRatio = bars.map((b) => b.reached === 0);
  return <HorizontalBarChart data={data} variant={HorizontalBarChartVariant.PartToWhole} hideRatio={hideRatio} barHeight={12} />;
}
