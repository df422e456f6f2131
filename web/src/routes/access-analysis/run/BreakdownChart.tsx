// A run's breakdown as bars (@fluentui/react-charts, with d3, as the
// dashboard draws its charts): a module of its own, loaded only when a chart
// comes near the screen, so the charting code stays out of the page's bundle.
import { HorizontalBarChart, HorizontalBarChartVariant, type ChartProps } from '@fluentui/react-charts';
import { tokens } from '@fluentui/react-components';

export type BreakdownGroup = { readonly key: string; readonly conflicts: number; readonly exercised: number };

/**
 * One bar per group, all on one scale (the largest group's count is the full
 * width), so the bars compare; each bar's count is written beside it.
 */
export function BreakdownChart({ groups, label }: { groups: readonly BreakdownGroup[]; label: (key: string) => string }) {
  const max = Math.max(1, ...groups.map((g) => g.conflicts));
  const data: ChartProps[] = groups.map((g) => ({
    chartTitle: label(g.key),
    chartData: [
      {
        legend: 'Conflicts',
        color: tokens.colorPaletteBlueForeground2,
        horizontalBarChartdata: { x: g.conflicts, total: max },
        yAxisCalloutData: `${g.conflicts} conflicts, ${g.exercised} exercised`,
      },
    ],
  }));
  return <HorizontalBarChart data={data} variant={HorizontalBarChartVariant.AbsoluteScale} barHeight={12} />;
}
