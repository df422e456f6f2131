import { Caption1, makeStyles, tokens } from '@fluentui/react-components';

export type UsageDay = { readonly day: string; readonly calls: number; readonly failed: number; readonly cost: number };

const DAYS = 30;
const W = 300;
const H = 80;

const useStyles = makeStyles({
  chart: { width: '100%', height: 'auto', display: 'block' },
  ok: { fill: tokens.colorBrandBackground },
  failed: { fill: tokens.colorPaletteRedBackground3 },
  cost: { fill: 'none', stroke: tokens.colorPaletteMarigoldBorderActive, strokeWidth: '1.5' },
  axis: { stroke: tokens.colorNeutralStroke2, strokeWidth: '1' },
  legend: { color: tokens.colorNeutralForeground3 },
  srOnly: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
});

/** The last 30 days (UTC), oldest first, with the days without calls as zeros. */
function lastDays(days: readonly UsageDay[]): UsageDay[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const out: UsageDay[] = [];
  const today = new Date();
  for (let i = DAYS - 1; i >= 0; i--) {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i)).toISOString().slice(0, 10);
    out.push(byDay.get(day) ?? { day, calls: 0, failed: 0, cost: 0 });
  }
  return out;
}

/**
 * Calls per day (bars: successful, and failed on top) and cost per day (line),
 * drawn as SVG (geometry in attributes, colours from theme tokens: no inline
 * styles, which the CSP forbids). A table for screen readers says the same.
 */
export function UsageChart({ days }: { days: readonly UsageDay[] }) {
  const styles = useStyles();
  const series = lastDays(days);
  const maxCalls = Math.max(1, ...series.map((d) => d.calls));
  const maxCost = Math.max(1e-9, ...series.map((d) => d.cost));
  const slot = W / DAYS;
  const bar = slot * 0.7;
  const y = (calls: number) => (calls / maxCalls) * (H - 4);
  const line = series.map((d, i) => `${(i * slot + slot / 2).toFixed(1)},${(H - (d.cost / maxCost) * (H - 4)).toFixed(1)}`).join(' ');
  const active = series.filter((d) => d.calls > 0);
  return (
    <figure className={styles.legend}>
      <svg className={styles.chart} viewBox={`0 0 ${W} ${H + 1}`} role="img" aria-label="AI calls and cost per day, last 30 days">
        {series.map((d, i) => {
          const ok = y(d.calls - d.failed);
          const bad = y(d.failed);
          const x = i * slot + (slot - bar) / 2;
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${d.calls} calls (${d.failed} failed), $${d.cost.toFixed(4)}`}</title>
              <rect className={styles.ok} x={x} y={H - ok} width={bar} height={ok} />
              <rect className={styles.failed} x={x} y={H - ok - bad} width={bar} height={bad} />
            </g>
          );
        })}
        <polyline className={styles.cost} points={line} />
        <line className={styles.axis} x1={0} x2={W} y1={H} y2={H} />
      </svg>
      <Caption1>Bars: calls per day (red: failed). Line: cost per day.</Caption1>
      <table className={styles.srOnly}>
        <caption>AI usage per day</caption>
        <thead>
          <tr>
            <th>Day</th>
            <th>Calls</th>
            <th>Failed</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {active.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.calls}</td>
              <td>{d.failed}</td>
              <td>${d.cost.toFixed(4)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
