// Help deciding: beside a risk row, the recommendation
// (retain / remove / review) with its reason, and the facts it comes from:
// usage from the export, last period's decision, the high-risk rule, the other
// reviewers sharing the row. Only shown: it never decides on its own.
import { Badge, Caption1, makeStyles, tokens, type BadgeProps } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { RecommendationHint_row$key } from '../../__generated__/RecommendationHint_row.graphql';
import { decisionLabel, formatDate } from './riskDisplay';

const useStyles = makeStyles({
  // Compact beside a row (a list shows many rows per screen): the badge, then the reason on one
  // line; the whole reason and the facts in the tooltip and for screen readers.
  // The box is never narrower than its badge (whatever the font makes of 'Suggests: Remove'):
  // beside the decision it goes to the next line rather than let the badge run out of its
  // cell. The reason takes the box's width but asks for none (width 0, at least the box's).
  box: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, flexGrow: 1, flexBasis: 0, maxWidth: '320px' },
  badge: { whiteSpace: 'nowrap', alignSelf: 'flex-start', flexShrink: 0 },
  reason: { color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', width: 0, minWidth: '100%' },
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});

export const RECOMMENDATION_LABEL: Record<string, string> = { RETAIN: 'Retain', REMOVE: 'Remove', REVIEW: 'Review' };
const COLOR: Record<string, BadgeProps['color']> = { RETAIN: 'success', REMOVE: 'danger', REVIEW: 'warning' };

export function RecommendationHint({ row }: { row: RecommendationHint_row$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment RecommendationHint_row on RiskRow {
        recommendation {
          value
          reason
        }
        lastPeriodDecision
        executionCount
        lastExecutedOn
        isHighRiskRule
        sharedReviewers
        sharedRemoved
        sharedRetained
      }
    `,
    row,
  );
  const facts: string[] = [];
  if (r.executionCount != null || r.lastExecutedOn) {
    facts.push(`Used ${r.executionCount ?? '?'}×${r.lastExecutedOn ? `, last ${formatDate(r.lastExecutedOn)}` : ''}`);
  }
  if (r.lastPeriodDecision) facts.push(`Last period: ${decisionLabel(r.lastPeriodDecision)}`);
  if (r.isHighRiskRule) facts.push('High-risk rule');
  if (r.sharedReviewers > 0) facts.push(`Shared with ${r.sharedReviewers} (${r.sharedRemoved} removed, ${r.sharedRetained} retained)`);
  const value = r.recommendation.value;
  const details = [r.recommendation.reason, ...facts].join(' · ');
  return (
    <div className={styles.box} data-testid="recommendation" title={details}>
      <Badge className={styles.badge} appearance="tint" shape="rounded" size="small" color={COLOR[value]}>
        Suggests: {RECOMMENDATION_LABEL[value]}
      </Badge>
      <Caption1 className={styles.reason}>{r.recommendation.reason}</Caption1>
      {facts.length ? <span className={styles.hidden}>{facts.join(' · ')}</span> : null}
    </div>
  );
}
