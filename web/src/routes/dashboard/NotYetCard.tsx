import { Body1, Caption1, Card, CardHeader, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { ChartMultiple24Regular } from '@fluentui/react-icons';

const useStyles = makeStyles({
  cardTitle: { margin: 0 },
  card: { padding: tokens.spacingHorizontalL },
  muted: { color: tokens.colorNeutralForeground3 },
  icon: { color: tokens.colorNeutralForeground3 },
});

/** The risk trend chart and Risk Categories breakdown: built from data in a later release, not shown as static figures. */
export function NotYetCard() {
  const styles = useStyles();
  return (
    <Card className={styles.card} appearance="filled-alternative">
      <CardHeader
        image={<ChartMultiple24Regular className={styles.icon} />}
        header={<Subtitle2 as="h2" className={styles.cardTitle}>Risk Trends and Risk Categories</Subtitle2>}
        description={<Caption1 className={styles.muted}>Not available yet</Caption1>}
      />
      <Body1 className={styles.muted}>
        The risk trend chart and the breakdown by risk category will be drawn from the loaded data in a coming release.
      </Body1>
    </Card>
  );
}
