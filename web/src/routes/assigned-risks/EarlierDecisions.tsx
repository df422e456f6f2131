// A row's stage in a multi-stage period and the earlier stages' submitted
// decisions with their comments, as a later stage's reviewer reads them
// beside the row (nothing at stage 1).
import { Badge, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { EarlierDecisions_row$key } from '../../__generated__/EarlierDecisions_row.graphql';
import { decisionLabel } from '../../domain/risks/riskDisplay';

const useStyles = makeStyles({
  wrap: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    rowGap: tokens.spacingVerticalXXS,
    minWidth: 0,
    marginBottom: tokens.spacingVerticalXS,
  },
  earlier: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, minWidth: 0 },
  item: { display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: tokens.spacingHorizontalXS, minWidth: 0 },
  comment: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere', fontStyle: 'italic' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The row's stage and the earlier stages' decisions with their comments (Decision column). */
export function EarlierDecisions({ row }: { row: EarlierDecisions_row$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment EarlierDecisions_row on RiskRow {
        stage
        previousDecisions {
          stage
          decision
          comments
          reviewerName
          reviewerEmail
        }
      }
    `,
    row,
  );
  if (r.stage < 2) return null;
  return (
    <div className={styles.wrap}>
      <Badge appearance="outline" color="brand" shape="rounded">{`Stage ${r.stage}`}</Badge>
      <ul className={styles.earlier} aria-label="Earlier decisions">
        {r.previousDecisions.map((d, i) => (
          <li key={`${d.stage}-${d.reviewerEmail}-${i}`} className={styles.item}>
            <Caption1>{`Stage ${d.stage}: ${decisionLabel(d.decision)}`}</Caption1>
            <Caption1 className={styles.muted}>{`by ${d.reviewerName || d.reviewerEmail}`}</Caption1>
            {d.comments ? <Caption1 className={styles.comment}>{`“${d.comments}”`}</Caption1> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
