import {
  Badge,
  Button,
  Caption1,
  makeStyles,
  mergeClasses,
  ProgressBar,
  TableCell,
  TableCellLayout,
  TableRow,
  tokens,
  type BadgeProps,
} from '@fluentui/react-components';
import { ArrowUndo20Regular, CheckmarkCircle20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { ReviewerStatusRow_status$key } from '../../__generated__/ReviewerStatusRow_status.graphql';
import { formatDateTime } from '../../domain/risks/riskDisplay';
import { formatCount } from '../../components/layout/StatTile';
import { ApprovalReviewDialog, type ApprovalMode } from './ApprovalReviewDialog';

const useStyles = makeStyles({
  name: { fontWeight: tokens.fontWeightSemibold },
  wrap: { overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  progress: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, minWidth: '120px' },
  num: { fontVariantNumeric: 'tabular-nums' },
  actions: {
    display: 'flex',
    flexWrap: 'nowrap',
    gap: tokens.spacingHorizontalXS,
    paddingTop: tokens.spacingVerticalXS,
    paddingBottom: tokens.spacingVerticalXS,
  },
});

const STATUS: Record<string, { label: string; color: BadgeProps['color'] }> = {
  SUBMITTED: { label: 'Submitted', color: 'brand' },
  APPROVED: { label: 'Approved', color: 'success' },
  RETURNED: { label: 'Returned', color: 'warning' },
  RECALLED: { label: 'Recalled', color: 'informative' },
};

export function ReviewerStatusRow({
  reviewer: statusRef,
  submissionId,
  onChanged,
}: {
  reviewer: ReviewerStatusRow_status$key;
  submissionId: string | null;
  onChanged: () => void;
}) {
  const styles = useStyles();
  const p = useFragment(
    graphql`
      fragment ReviewerStatusRow_status on ReviewerStatus {
        reviewer {
          id
          firstName
          lastName
          displayName
          email
          isActive
        }
        assigned
        decided
        submitted
        approved
        submissionStatus
        lastActivity
      }
    `,
    statusRef,
  );
  const [mode, setMode] = useState<ApprovalMode | null>(null);

  const name = p.reviewer.displayName || p.reviewer.email;
  const ratio = p.assigned > 0 ? Math.min(p.decided / p.assigned, 1) : 0;
  const status = p.submissionStatus ? STATUS[p.submissionStatus] : undefined;
  const awaiting = p.submissionStatus === 'SUBMITTED' && submissionId != null;

  return (
    <TableRow>
      <TableCell>
        <TableCellLayout className={styles.wrap} description={<Caption1 className={styles.muted}>{p.reviewer.email}</Caption1>}>
          <span className={styles.name}>{name}</span>
        </TableCellLayout>
      </TableCell>
      <TableCell className={styles.num}>{formatCount(p.assigned)}</TableCell>
      <TableCell>
        <div className={styles.progress}>
          <ProgressBar value={ratio} thickness="large" color={ratio >= 1 ? 'success' : 'brand'} aria-label={`${name}: ${p.decided} of ${p.assigned} decided`} />
          <Caption1 className={mergeClasses(styles.muted, styles.num)}>
            {formatCount(p.decided)} / {formatCount(p.assigned)} ({Math.round(ratio * 100)}%)
          </Caption1>
        </div>
      </TableCell>
      <TableCell className={styles.num}>{formatCount(p.submitted)}</TableCell>
      <TableCell className={styles.num}>{formatCount(p.approved)}</TableCell>
      <TableCell>
        {status ? (
          <Badge appearance="tint" color={status.color} shape="rounded">
            {status.label}
          </Badge>
        ) : (
          // 'subtle' with 'outline' is white text on no background: invisible on a white row.
          <Badge appearance="outline" color="informative" shape="rounded">
            {p.decided > 0 ? 'In progress' : 'Not started'}
          </Badge>
        )}
      </TableCell>
      <TableCell>{formatDateTime(p.lastActivity)}</TableCell>
      <TableCell>
        {awaiting ? (
          <div className={styles.actions}>
            <Button size="small" appearance="primary" icon={<CheckmarkCircle20Regular />} onClick={() => setMode('approve')}>
              Approve
            </Button>
            <Button size="small" icon={<ArrowUndo20Regular />} onClick={() => setMode('return')}>
              Return
            </Button>
          </div>
        ) : (
          <Caption1 className={styles.muted}>—</Caption1>
        )}

        <ApprovalReviewDialog mode={mode} submissionId={submissionId} name={name} submitted={p.submitted} onClose={() => setMode(null)} onDone={onChanged} />
      </TableCell>
    </TableRow>
  );
}
