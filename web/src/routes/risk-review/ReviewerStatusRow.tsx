import {
  Badge,
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  mergeClasses,
  ProgressBar,
  Spinner,
  TableCell,
  TableCellLayout,
  TableRow,
  Textarea,
  tokens,
  type BadgeProps,
} from '@fluentui/react-components';
import { ArrowUndo20Regular, CheckmarkCircle20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { ReviewerStatusRowApproveMutation } from '../../__generated__/ReviewerStatusRowApproveMutation.graphql';
import type { ReviewerStatusRowReturnMutation } from '../../__generated__/ReviewerStatusRowReturnMutation.graphql';
import type { ReviewerStatusRow_status$key } from '../../__generated__/ReviewerStatusRow_status.graphql';
import { errorMessage, thrownMessage } from '../../components/mutationResult';
import { formatDateTime } from '../../domain/risks/riskDisplay';
import { fullName } from '../../domain/users/userNames';
import { formatCount } from '../../components/StatTile';
import { useNotify } from '../../components/toast';

const useStyles = makeStyles({
  name: { fontWeight: tokens.fontWeightSemibold },
  wrap: { overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  progress: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, minWidth: '120px' },
  num: { fontVariantNumeric: 'tabular-nums' },
  actions: { display: 'flex', flexWrap: 'nowrap', gap: tokens.spacingHorizontalXS, paddingTop: tokens.spacingVerticalXS, paddingBottom: tokens.spacingVerticalXS },
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

const approveMutation = graphql`
  mutation ReviewerStatusRowApproveMutation($id: ID!) {
    approveSubmission(id: $id) {
      __typename
      ... on MutationApproveSubmissionSuccess {
        data {
          id
          status
          reviewedAt
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const returnMutation = graphql`
  mutation ReviewerStatusRowReturnMutation($id: ID!, $comment: String!) {
    returnSubmission(id: $id, comment: $comment) {
      __typename
      ... on MutationReturnSubmissionSuccess {
        data {
          id
          status
          reviewComment
          reviewedAt
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const STATUS: Record<string, { label: string; color: BadgeProps['color'] }> = {
  submitted: { label: 'Submitted', color: 'brand' },
  approved: { label: 'Approved', color: 'success' },
  returned: { label: 'Returned', color: 'warning' },
  recalled: { label: 'Recalled', color: 'informative' },
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
  const notify = useNotify();
  const p = useFragment(
    graphql`
      fragment ReviewerStatusRow_status on ReviewerStatus {
        reviewer {
          id
          firstName
          lastName
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
  const [approving, setApproving] = useState(false);
  const [returning, setReturning] = useState(false);
  const [comment, setComment] = useState('');
  const [commitApprove, approveInFlight] = useMutation<ReviewerStatusRowApproveMutation>(approveMutation);
  const [commitReturn, returnInFlight] = useMutation<ReviewerStatusRowReturnMutation>(returnMutation);

  const name = fullName(p.reviewer.firstName, p.reviewer.lastName) || p.reviewer.email;
  const ratio = p.assigned > 0 ? Math.min(p.decided / p.assigned, 1) : 0;
  const status = p.submissionStatus ? STATUS[p.submissionStatus] : undefined;
  const awaiting = p.submissionStatus === 'submitted' && submissionId != null;

  const approve = () => {
    if (!submissionId) return;
    const fail = (message?: string) => notify({ title: 'Approval Failed', description: message || 'Failed to approve decisions', intent: 'error' });
    commitApprove({
      variables: { id: submissionId },
      onCompleted: ({ approveSubmission: r }) => {
        if (r.__typename !== 'MutationApproveSubmissionSuccess') return fail(errorMessage(r));
        setApproving(false);
        notify({ title: 'Decisions Approved', description: `${name}'s decisions are approved and final.`, intent: 'success' });
        onChanged();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  const sendBack = () => {
    if (!submissionId || !comment.trim()) return;
    const fail = (message?: string) => notify({ title: 'Return Failed', description: message || 'Failed to return decisions', intent: 'error' });
    commitReturn({
      variables: { id: submissionId, comment: comment.trim() },
      onCompleted: ({ returnSubmission: r }) => {
        if (r.__typename !== 'MutationReturnSubmissionSuccess') return fail(errorMessage(r));
        setReturning(false);
        setComment('');
        notify({ title: 'Decisions Returned', description: `${name} has been notified and can edit the decisions again.`, intent: 'success' });
        onChanged();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

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
          <ProgressBar
            value={ratio}
            thickness="large"
            color={ratio >= 1 ? 'success' : 'brand'}
            aria-label={`${name}: ${p.decided} of ${p.assigned} decided`}
          />
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
            <Button size="small" appearance="primary" icon={<CheckmarkCircle20Regular />} onClick={() => setApproving(true)}>
              Approve
            </Button>
            <Button size="small" icon={<ArrowUndo20Regular />} onClick={() => setReturning(true)}>
              Return
            </Button>
          </div>
        ) : (
          <Caption1 className={styles.muted}>—</Caption1>
        )}

        <Dialog open={approving} onOpenChange={(_, d) => !approveInFlight && setApproving(d.open)}>
          <DialogSurface>
            <DialogBody>
              <DialogTitle>Approve Decisions</DialogTitle>
              <DialogContent>
                <Body1>
                  Approve the {formatCount(p.submitted)} decisions {name} submitted? Approval is final: the decisions can no
                  longer be changed or recalled in this review period.
                </Body1>
              </DialogContent>
              <DialogActions>
                <Button appearance="secondary" disabled={approveInFlight} onClick={() => setApproving(false)}>
                  Cancel
                </Button>
                <Button
                  appearance="primary"
                  disabled={approveInFlight}
                  icon={approveInFlight ? <Spinner size="tiny" /> : undefined}
                  onClick={approve}
                >
                  Approve
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>

        <Dialog open={returning} onOpenChange={(_, d) => !returnInFlight && setReturning(d.open)}>
          <DialogSurface>
            <DialogBody>
              <DialogTitle>Return Decisions</DialogTitle>
              <DialogContent className={styles.form}>
                <Body1>
                  The decisions become editable again and {name} is notified with your comment.
                </Body1>
                <Field label="Comment" required hint="Say what should be reconsidered.">
                  <Textarea value={comment} resize="vertical" onChange={(_, d) => setComment(d.value)} />
                </Field>
              </DialogContent>
              <DialogActions>
                <Button appearance="secondary" disabled={returnInFlight} onClick={() => setReturning(false)}>
                  Cancel
                </Button>
                <Button
                  appearance="primary"
                  disabled={returnInFlight || !comment.trim()}
                  icon={returnInFlight ? <Spinner size="tiny" /> : undefined}
                  onClick={sendBack}
                >
                  Return
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      </TableCell>
    </TableRow>
  );
}
