// Approval that means something: the Approve and Return
// dialogs of Reviewer Status list the submission's items, removals,
// mitigations and those retained against a 'remove' recommendation first,
// each with a comment field, beside the comment on the whole set.
import { Badge, Body1, Caption1, Field, Input, makeStyles, Spinner, Text, Textarea, tokens, type BadgeProps } from '@fluentui/react-components';
import { Suspense, useEffect, useState } from 'react';
import { graphql, useMutation, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import type { ApprovalReviewDialogQuery } from '../../__generated__/ApprovalReviewDialogQuery.graphql';
import type { ApprovalReviewDialogApproveMutation } from '../../__generated__/ApprovalReviewDialogApproveMutation.graphql';
import type { ApprovalReviewDialogReturnMutation } from '../../__generated__/ApprovalReviewDialogReturnMutation.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { formatCount } from '../../components/layout/StatTile';
import { FormDialog, useFailureToast } from '../../components/forms/FormDialog';
import { useNotify } from '../../components/forms/toast';
import { decisionLabel } from '../../domain/risks/riskDisplay';
import { listedItemsHeading, unlistedItemsNote } from './approvalWording';

const useStyles = makeStyles({
  list: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    maxHeight: '45vh',
    overflowY: 'auto',
    margin: 0,
    padding: 0,
    listStyleType: 'none',
  },
  item: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  head: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  muted: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
});

/** Items shown for comment; a larger set lists the first ones (attention first) and says how many more. */
const SHOWN = 100;

const reviewQuery = graphql`
  query ApprovalReviewDialogQuery($id: ID!) {
    submissionReview(id: $id) {
      total
      items {
        riskRowId
        group
        userId
        userName
        roleProfile
        accessRiskId
        decision
        comments
        mitigationControl
        recommendation {
          value
          reason
        }
      }
    }
  }
`;

const approveMutation = graphql`
  mutation ApprovalReviewDialogApproveMutation($id: ID!, $comment: String, $itemComments: [ItemCommentInput!]) {
    approveSubmission(id: $id, comment: $comment, itemComments: $itemComments) {
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
  mutation ApprovalReviewDialogReturnMutation($id: ID!, $comment: String, $itemComments: [ItemCommentInput!]) {
    returnSubmission(id: $id, comment: $comment, itemComments: $itemComments) {
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

const GROUP: Record<string, { label: string; color: BadgeProps['color'] }> = {
  REMOVAL: { label: 'Removal', color: 'danger' },
  MITIGATION: { label: 'Mitigation', color: 'important' },
  RETAINED_AGAINST_RECOMMENDATION: { label: "Retained against 'remove'", color: 'warning' },
  OTHER: { label: 'Other', color: 'informative' },
};

export type ApprovalMode = 'approve' | 'return';

/** The Approve or Return dialog of one submission. */
export function ApprovalReviewDialog({
  mode,
  submissionId,
  name,
  submitted,
  onClose,
  onDone,
}: {
  mode: ApprovalMode | null;
  submissionId: string | null;
  name: string;
  submitted: number;
  onClose: () => void;
  onDone: () => void;
}) {
  const notify = useNotify();
  const failApprove = useFailureToast('Approval Failed', 'Failed to approve decisions');
  const failReturn = useFailureToast('Return Failed', 'Failed to return decisions');
  const [queryRef, loadReview] = useQueryLoader<ApprovalReviewDialogQuery>(reviewQuery);
  const [comment, setComment] = useState('');
  const [itemComments, setItemComments] = useState<Record<string, string>>({});
  const [commitApprove, approving] = useMutation<ApprovalReviewDialogApproveMutation>(approveMutation);
  const [commitReturn, returning] = useMutation<ApprovalReviewDialogReturnMutation>(returnMutation);
  const busy = approving || returning;
  useEffect(() => {
    if (mode && submissionId) loadReview({ id: submissionId }, { fetchPolicy: 'network-only' });
  }, [mode, submissionId, loadReview]);

  const items = Object.entries(itemComments)
    .filter(([, c]) => c.trim())
    .map(([riskRowId, c]) => ({ riskRowId, comment: c.trim() }));
  const canReturn = Boolean(comment.trim()) || items.length > 0;
  const close = () => {
    setComment('');
    setItemComments({});
    onClose();
  };

  const send = () => {
    if (!submissionId || !mode) return;
    const variables = { id: submissionId, comment: comment.trim() || null, itemComments: items.length ? items : null };
    const fail = mode === 'approve' ? failApprove : failReturn;
    const done = (ok: boolean, r: Parameters<typeof errorMessage>[0]) => {
      if (!ok) return fail(errorMessage(r));
      close();
      notify(
        mode === 'approve'
          ? { title: 'Decisions Approved', description: `${name}'s decisions are approved and final.`, intent: 'success' }
          : { title: 'Decisions Returned', description: `${name} has been notified and can edit the decisions again.`, intent: 'success' },
      );
      onDone();
    };
    if (mode === 'approve') {
      commitApprove({
        variables,
        onCompleted: ({ approveSubmission: r }) => done(r.__typename === 'MutationApproveSubmissionSuccess', r),
        onError: (e) => fail(thrownMessage(e)),
      });
    } else {
      commitReturn({
        variables,
        onCompleted: ({ returnSubmission: r }) => done(r.__typename === 'MutationReturnSubmissionSuccess', r),
        onError: (e) => fail(thrownMessage(e)),
      });
    }
  };

  const loading = <Spinner size="small" label="Loading the submitted items..." />;
  return (
    <FormDialog
      open={mode != null}
      title={mode === 'approve' ? 'Approve Decisions' : 'Return Decisions'}
      submitLabel={mode === 'approve' ? 'Approve' : 'Return'}
      busy={busy}
      submitDisabled={mode === 'return' && !canReturn}
      onSubmit={send}
      onClose={close}
    >
      <Body1>
        {mode === 'approve'
          ? `Approve the ${formatCount(submitted)} decisions ${name} submitted? Approval is final: the decisions can no longer be changed or recalled in this review period.`
          : `The decisions become editable again and ${name} is notified with your comments.`}
      </Body1>
      {queryRef ? (
        <Suspense fallback={loading}>
          <ApprovalItems queryRef={queryRef} comments={itemComments} onComment={(id, c) => setItemComments((m) => ({ ...m, [id]: c }))} />
        </Suspense>
      ) : (
        loading
      )}
      <Field
        label="Comment"
        required={mode === 'return' && items.length === 0}
        hint={mode === 'return' ? 'Say what should be reconsidered, here or on the items.' : 'Optional, on the whole set.'}
      >
        <Textarea value={comment} resize="vertical" onChange={(_, d) => setComment(d.value)} />
      </Field>
    </FormDialog>
  );
}

function ApprovalItems({
  queryRef,
  comments,
  onComment,
}: {
  queryRef: PreloadedQuery<ApprovalReviewDialogQuery>;
  comments: Record<string, string>;
  onComment: (riskRowId: string, comment: string) => void;
}) {
  const styles = useStyles();
  const { submissionReview: review } = usePreloadedQuery<ApprovalReviewDialogQuery>(reviewQuery, queryRef);
  const shown = review.items.slice(0, SHOWN);
  const unlisted = unlistedItemsNote(review.total, shown.length);
  return (
    <>
      <Text weight="semibold">{listedItemsHeading(review.total, shown.length)}</Text>
      <ul className={styles.list} aria-label="Submitted items">
        {shown.map((i) => {
          const group = GROUP[i.group] ?? GROUP.OTHER!;
          const who = `${i.userName || i.userId} · ${i.accessRiskId} · ${i.roleProfile}`;
          return (
            <li key={i.riskRowId} className={styles.item}>
              <span className={styles.head}>
                <Badge appearance="tint" shape="rounded" size="small" color={group.color}>
                  {group.label}
                </Badge>
                <Text weight="semibold">{who}</Text>
                <Caption1>
                  {decisionLabel(i.decision)}
                  {i.mitigationControl ? ` (${i.mitigationControl})` : ''}
                </Caption1>
              </span>
              {i.comments ? <Caption1 className={styles.muted}>Reviewer: “{i.comments}”</Caption1> : null}
              <Caption1 className={styles.muted}>
                Suggested {i.recommendation.value}: {i.recommendation.reason}
              </Caption1>
              <Input
                size="small"
                aria-label={`Comment on ${who}`}
                placeholder="Comment on this item"
                value={comments[i.riskRowId] ?? ''}
                onChange={(_, d) => onComment(i.riskRowId, d.value)}
              />
            </li>
          );
        })}
      </ul>
      {unlisted ? <Caption1 className={styles.muted}>{unlisted}</Caption1> : null}
    </>
  );
}
