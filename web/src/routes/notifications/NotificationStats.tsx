import { Caption1, Card, makeStyles, Text, tokens } from '@fluentui/react-components';
import { AlertBadge24Regular, Mail24Regular, MailRead24Regular } from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { NotificationStats_counts$key } from '../../__generated__/NotificationStats_counts.graphql';
import { IconTile } from '../../components/layout/IconTile';

/** SPEC §2: rounded percentage of (total - unread) / total; 0 when total is 0. */
export function readRate(total: number, unread: number): number {
  if (total <= 0) return 0;
  return Math.round(((total - unread) / total) * 100);
}

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
    gap: tokens.spacingHorizontalL,
    marginBottom: tokens.spacingVerticalXL,
  },
  card: {
    display: 'flex',
    flexDirection: 'row',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalL,
    padding: tokens.spacingHorizontalL,
  },
  text: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
  },
  label: {
    color: tokens.colorNeutralForeground3,
  },
  value: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1,
  },
});

function Stat({ label, value, icon, tone }: { label: string; value: string; icon: ReactElement; tone: 'brand' | 'orange' | 'success' }) {
  const styles = useStyles();
  return (
    <Card className={styles.card} role="group" aria-label={label}>
      <IconTile size="medium" tone={tone}>
        {icon}
      </IconTile>
      <div className={styles.text}>
        <Caption1 className={styles.label}>{label}</Caption1>
        <Text className={styles.value}>{value}</Text>
      </div>
    </Card>
  );
}

/**
 * SPEC §2 (Notifications): Total Notifications, Unread Messages, Read Rate, of
 * the notifications the page lists: for an administrator every one sent, of
 * which unread are those addressed to them that they have not read (what was
 * sent to others is theirs to read, counted in 'Read by'); for anyone else
 * their own.
 */
export function NotificationStats({ counts }: { counts: NotificationStats_counts$key }) {
  const { total, unreadCount } = useFragment(
    graphql`
      fragment NotificationStats_counts on NotificationCounts {
        total
        unreadCount
      }
    `,
    counts,
  );
  const styles = useStyles();
  return (
    <section className={styles.grid} aria-label="Notification statistics">
      <Stat label="Total Notifications" value={String(total)} icon={<AlertBadge24Regular />} tone="brand" />
      <Stat label="Unread Messages" value={String(unreadCount)} icon={<Mail24Regular />} tone="orange" />
      <Stat label="Read Rate" value={`${readRate(total, unreadCount)}%`} icon={<MailRead24Regular />} tone="success" />
    </section>
  );
}
