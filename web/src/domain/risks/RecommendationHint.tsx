// Help deciding (issue 18, point 2): beside a risk row, the recommendation
// (retain / remove / review) with its reason, and the facts it comes from:
// usage from the export, last period's decision, the high-risk rule, the other
// reviewers sharing the row. Only shown: it never decides on its own.
import { Badge, Caption1, makeStyles, tokens, type BadgeProps } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { RecommendationHint_row$key } from '../../__generated__/RecommendationHint_row.graphql';
import { decisionLabel, formatDate } from './riskDisplay';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, paddingTop: tokens.spacingVerticalXS, maxWidth: '320px' },
  line: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  muted: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
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
  return (
    <div className={styles.box} data-testid="recommendation">
      <span className={styles.line}>
        <Badge appearance="tint" shape="rounded" size="small" color={COLOR[value]}>
          Suggests: {RECOMMENDATION_LABEL[value]}
        </Badge>
        <Caption1 className={styles.muted}>{r.recommendation.reason}</Caption1>
      </span>
      {facts.length ? <Caption1 className={styles.muted}>{facts.join(' · ')}</Caption1> : null}
    </div>
  );
}
