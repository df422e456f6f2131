// The dashboard's charts (@fluentui/react-charts, with d3): a module of its
// own, loaded only when a chart is drawn, so the charting code stays out of
// the first page's bundle.
import { DonutChart, HorizontalBarChart, HorizontalBarChartVariant, LineChart, type ChartProps } from '@fluentui/react-charts';
import { tokens } from '@fluentui/react-components';
import { formatCount } from '../../components/layout/StatTile';

export type TrendSeriesPoint = { date: string; loaded: number; retained: number; removed: number; pending: number };

/** The series of the trend chart and their colours (Fluent palette tokens). */
export const TREND_SERIES = [
  { key: 'loaded', legend: 'Conflicts loaded', color: tokens.colorPaletteBlueForeground2 },
  { key: 'retained', legend: 'Retained', color: tokens.colorPaletteGreenForeground1 },
  { key: 'removed', legend: 'Removed', color: tokens.colorPaletteRedForeground1 },
  { key: 'pending', legend: 'Pending', color: tokens.colorPaletteDarkOrangeForeground1 },
] as const;

export function TrendChart({ points, title, width }: { points: readonly TrendSeriesPoint[]; title: string; width?: number }) {
  const data: ChartProps = {
    chartTitle: title,
    lineChartData: TREND_SERIES.map((s) => ({
      legend: s.legend,
      color: s.color,
      data: points.map((p) => ({ x: new Date(p.date), y: p[s.key] })),
    })),
  };
  return <LineChart data={data} height={260} width={width} enablePerfOptimization useUTC />;
}

/** Category colours, in the order of SPEC §9, then the rest. */
const CATEGORY_COLORS = [
  tokens.colorPaletteBlueForeground2,
  tokens.colorPalettePurpleForeground2,
  tokens.colorPaletteGreenForeground1,
  tokens.colorPaletteDarkOrangeForeground1,
  tokens.colorPaletteBerryForeground1,
  tokens.colorPaletteTealForeground2,
];

export function categoryColor(category: string, index: number): string {
  return category === 'Uncategorised' ? tokens.colorNeutralForeground4 : CATEGORY_COLORS[index % CATEGORY_COLORS.length]!;
}

export function CategoryChart({ categories, width }: { categories: readonly { category: string; count: number }[]; width?: number }) {
  const total = categories.reduce((s, c) => s + c.count, 0);
  const data: ChartProps = {
    chartTitle: 'Risk Categories',
    chartData: categories.map((c, i) => ({ legend: c.category, data: c.count, color: categoryColor(c.category, i) })),
  };
  return <DonutChart data={data} innerRadius={55} height={220} width={width} valueInsideDonut={formatCount(total)} hideLegend />;
}

/**
 * The create-period preview's reviewers, a bar each on one scale (the most
 * loaded reviewer's count is the full width), so the loads compare.
 */
export function ReviewerLoadChart({ bars }: { bars: readonly { key: string; label: string; rows: number }[] }) {
  const max = Math.max(1, ...bars.map((b) => b.rows));
  const data: ChartProps[] = bars.map((b) => ({
    chartTitle: b.label,
    chartData: [
      {
        legend: 'Conflicts',
        color: tokens.colorPaletteBlueForeground2,
        horizontalBarChartdata: { x: b.rows, total: max },
        yAxisCalloutData: `${formatCount(b.rows)} conflicts`,
      },
    ],
  }));
  return <HorizontalBarChart data={data} variant={HorizontalBarChartVariant.AbsoluteScale} barHeight={12} />;
}
