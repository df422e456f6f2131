import { Caption1, Card, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { IconTile, type IconTone } from './IconTile';

const useStyles = makeStyles({
  tile: {
    display: 'flex',
    flexDirection: 'row',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalL,
    minWidth: 0,
  },
  text: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    minWidth: 0,
  },
  label: {
    color: tokens.colorNeutralForeground2,
    fontWeight: tokens.fontWeightSemibold,
  },
  value: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1,
    fontVariantNumeric: 'tabular-nums',
  },
  caption: {
    color: tokens.colorNeutralForeground3,
  },
  trend: {
    color: tokens.colorNeutralForeground2,
    fontWeight: tokens.fontWeightSemibold,
  },
});

export type StatTone = Extract<IconTone, 'brand' | 'danger' | 'warning' | 'success' | 'neutral'>;

export type StatTileProps = {
  label: string;
  value: number | string;
  caption?: ReactNode;
  /** A change over time, under the caption (SPEC §2: the 'High Risk Users' trend text). */
  trend?: ReactNode;
  icon?: ReactNode;
  tone?: StatTone;
  className?: string;
};

/** One figure with its label (a named group, so tests and screen readers can find it by label). */
export function StatTile({ label, value, caption, trend, icon, tone = 'brand', className }: StatTileProps) {
  const styles = useStyles();
  return (
    <Card className={mergeClasses(styles.tile, className)} role="group" aria-label={label}>
      <div className={styles.text}>
        <Text className={styles.label}>{label}</Text>
        <Text className={styles.value}>{typeof value === 'number' ? formatCount(value) : value}</Text>
        {caption ? <Caption1 className={styles.caption}>{caption}</Caption1> : null}
        {trend ? <Caption1 className={styles.trend}>{trend}</Caption1> : null}
      </div>
      {icon ? (
        <IconTile size="small" tone={tone}>
          {icon}
        </IconTile>
      ) : null}
    </Card>
  );
}

/**
 * A count as `Intl.NumberFormat('en-US')` writes it (1,000,000), spelled out for
 * integers: the page's first Intl object loads the locale's data, 50–90 ms of a
 * phone's main thread while the first screen loads, which grouping
 * digits does not need.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
