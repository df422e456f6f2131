import { Avatar, Caption1, makeStyles, TableCell, TableCellLayout, TableRow, Text, tokens, type TableRowProps } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { ReviewDecisionRow_review$key } from '../../__generated__/ReviewDecisionRow_review.graphql';
import { fullDateTime, shortDate } from '../../components/format/dates';
import { DecisionBadge, RiskLevelIndicator, TechName } from '../risks/riskDisplay';

const useStyles = makeStyles({
  name: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  role: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalXXS },
});

/** Initials of a person's name as shown ('Alice Jones' → 'AJ'). */
export function nameInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return ((words[0]?.charAt(0) ?? '') + (words.length > 1 ? words[words.length - 1]!.charAt(0) : '')).toUpperCase() || 'U';
}

/**
 * One review decision as a table row (Reports' Recent Risk Reviews, All Review Decisions):
 * User, Risk Level, Role, Decision, Reviewer, then `beforeDate` (a table's own columns), then Date.
 * `avatar` adds the user's initials; `roleBadge`, when given (even null), sets the role beside it.
 * Other props go to the row.
 */
export function ReviewDecisionRow({
  review,
  avatar = false,
  roleBadge,
  beforeDate,
  ...rowProps
}: { review: ReviewDecisionRow_review$key; avatar?: boolean; roleBadge?: ReactNode; beforeDate?: ReactNode } & Omit<TableRowProps, 'children'>) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment ReviewDecisionRow_review on ReviewDecision {
        userId
        userName
        riskLevel
        roleProfile
        decision
        reviewerName
        createdAt
      }
    `,
    review,
  );
  const name = r.userName || r.userId;
  const role = <TechName value={r.roleProfile} />;
  return (
    <TableRow {...rowProps}>
      <TableCell>
        <TableCellLayout
          media={avatar ? <Avatar initials={nameInitials(name)} name={name} color="colorful" size={32} aria-hidden /> : undefined}
          description={<Caption1 className={styles.muted}>{r.userId}</Caption1>}
        >
          <Text className={styles.name}>{name}</Text>
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <RiskLevelIndicator level={r.riskLevel} />
      </TableCell>
      <TableCell>
        {roleBadge === undefined ? (
          role
        ) : (
          <span className={styles.role}>
            {role}
            {roleBadge}
          </span>
        )}
      </TableCell>
      <TableCell>
        <DecisionBadge decision={r.decision} />
      </TableCell>
      <TableCell>{r.reviewerName}</TableCell>
      {beforeDate}
      <TableCell>
        <time dateTime={r.createdAt} title={fullDateTime(r.createdAt)}>
          {shortDate(r.createdAt)}
        </time>
      </TableCell>
    </TableRow>
  );
}
