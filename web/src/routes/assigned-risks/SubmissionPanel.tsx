import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Spinner } from '@fluentui/react-components';
import { ArrowUndo20Regular, Send20Regular } from '@fluentui/react-icons';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { SubmissionPanelRecallMutation } from '../../__generated__/SubmissionPanelRecallMutation.graphql';
import type { SubmissionPanelSubmitMutation } from '../../__generated__/SubmissionPanelSubmitMutation.graphql';
import type { SubmissionPanelSubmitStageMutation } from '../../__generated__/SubmissionPanelSubmitStageMutation.graphql';
import type { SubmissionPanel_status$data, SubmissionPanel_status$key } from '../../__generated__/SubmissionPanel_status.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { formatDateTime } from '../../domain/risks/riskDisplay';
import { formatCount } from '../../components/layout/StatTile';
import { useNotify } from '../../components/forms/toast';

const submitMutation = graphql`
  mutation SubmissionPanelSubmitMutation {
    submitDecisions {
      __typename
      ... on MutationSubmitDecisionsSuccess {
        data {
          id
          status
          decisionCount
          submittedAt
          reviewComment
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const submitStageMutation = graphql`
  mutation SubmissionPanelSubmitStageMutation {
    submitStageDecisions {
      __typename
      ... on MutationSubmitStageDecisionsSuccess {
        data
      }
      ... on Error {
        message
      }
    }
  }
`;

const recallMutation = graphql`
  mutation SubmissionPanelRecallMutation {
    recallDecisions {
      __typename
      ... on MutationRecallDecisionsSuccess {
        data
      }
      ... on Error {
        message
      }
    }
  }
`;

const decisions = (n: number) => `${formatCount(n)} ${n === 1 ? 'decision' : 'decisions'}`;

/** Stage 1's submit and recall of the viewer's set, each keeping the panel's state in the store and telling the outcome. */
function useSubmitAndRecall(s: Pick<SubmissionPanel_status$data, 'totalDecisions' | 'stage' | 'nextStageName'>) {
  const notify = useNotify();
  const [commitSubmit, submitting] = useMutation<SubmissionPanelSubmitMutation>(submitMutation);
  const [commitRecall, recalling] = useMutation<SubmissionPanelRecallMutation>(recallMutation);

  const submit = () => {
    const fail = (message?: string) => notify({ title: 'Submission Failed', description: message || 'Failed to submit decisions', intent: 'error' });
    commitSubmit({
      variables: {},
      updater: (store) => {
        const submission = store.getRootField('submitDecisions')?.getLinkedRecord('data');
        const state = store.getRoot().getLinkedRecord('submissionStatus');
        if (!submission || !state) return;
        state.setValue(true, 'isSubmitted');
        state.setValue('SUBMITTED', 'status');
        state.setValue(submission.getValue('submittedAt'), 'submittedAt');
        state.setValue(null, 'reviewComment');
        state.setValue(true, 'canRecall');
        state.setLinkedRecords([], 'itemComments');
      },
      onCompleted: ({ submitDecisions: r }) => {
        if (r.__typename !== 'MutationSubmitDecisionsSuccess') return fail(errorMessage(r));
        notify({
          title: 'Decisions Submitted',
          description:
            s.nextStageName === null
              ? `${r.data?.decisionCount ?? s.totalDecisions} review decisions submitted for approval`
              : `${r.data?.decisionCount ?? s.totalDecisions} review decisions passed on to stage ${s.stage + 1} (${s.nextStageName})`,
          intent: 'success',
        });
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  const recall = () => {
    const fail = (message?: string) => notify({ title: 'Recall Failed', description: message || 'Failed to recall decisions', intent: 'error' });
    commitRecall({
      variables: {},
      updater: (store, response) => {
        if (response?.recallDecisions.__typename !== 'MutationRecallDecisionsSuccess') return;
        const state = store.getRoot().getLinkedRecord('submissionStatus');
        if (!state) return;
        state.setValue(false, 'isSubmitted');
        state.setValue('RECALLED', 'status');
        state.setValue(null, 'submittedAt');
        state.setValue(false, 'canRecall');
      },
      onCompleted: ({ recallDecisions: r }) => {
        if (r.__typename !== 'MutationRecallDecisionsSuccess') return fail(errorMessage(r));
        notify({ title: 'Decisions Recalled', description: `${decisions(r.data ?? s.totalDecisions)} can be edited again.`, intent: 'success' });
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };
  return { submit, submitting, recall, recalling };
}

/** SPEC §2/§4 submission area: no decisions, decisions ready, submitted (locked), recalled, returned, approved. */
export function SubmissionPanel({ status }: { status: SubmissionPanel_status$key }) {
  const s = useFragment(
    graphql`
      fragment SubmissionPanel_status on SubmissionState {
        periodActive
        isSubmitted
        hasDecisions
        totalDecisions
        submittedAt
        status
        reviewComment
        stage
        stageName
        stageCount
        nextStageName
        canRecall
        itemComments {
          riskRowId
          userId
          accessRiskId
          roleProfile
          comment
        }
      }
    `,
    status,
  );
  const { submit, submitting, recall, recalling } = useSubmitAndRecall(s);

  if (!s.periodActive) return null;
  if (s.stage > 1) return <StageSubmission stage={s.stage} stageName={s.stageName} state={s} />;

  // The approver's comments on single items.
  const notes = s.itemComments.length ? (
    <ul aria-label="Comments on your items">
      {s.itemComments.map((c) => (
        <li key={c.riskRowId}>
          {c.userId} · {c.accessRiskId} · {c.roleProfile}: “{c.comment}”
        </li>
      ))}
    </ul>
  ) : null;

  const submitButton = (
    <Button appearance="primary" icon={submitting ? <Spinner size="tiny" /> : <Send20Regular />} disabled={submitting} onClick={submit}>
      Submit All Decisions
    </Button>
  );

  const recallButton = (
    <Button icon={recalling ? <Spinner size="tiny" /> : <ArrowUndo20Regular />} disabled={recalling} onClick={recall}>
      Recall for Editing
    </Button>
  );

  if (s.status === 'APPROVED') {
    return (
      <MessageBar intent="success" layout="multiline" role="status">
        <MessageBarBody>
          <MessageBarTitle>Approved</MessageBarTitle>
          Your {decisions(s.totalDecisions)} for this period were approved and are final.
          {notes}
        </MessageBarBody>
      </MessageBar>
    );
  }

  // A multi-stage period: the set went on to the next stage, and is recallable only until that stage decides a row of it.
  if (s.status === 'SUBMITTED' && s.nextStageName !== null) {
    const next = `stage ${s.stage + 1} (${s.nextStageName})`;
    return (
      <MessageBar intent="info" layout="multiline" role="status">
        <MessageBarBody>
          <MessageBarTitle>{`Submitted — passed on to ${next}`}</MessageBarTitle>
          Your {decisions(s.totalDecisions)} were submitted {s.submittedAt ? `on ${formatDateTime(s.submittedAt)} ` : ''}and went on to {next}, whose reviewers
          confirm or overturn them before the administrator&apos;s approval.{' '}
          {s.canRecall
            ? 'Recall them to make changes until that stage decides one of them.'
            : 'That stage has begun deciding them, so they can no longer be recalled.'}
        </MessageBarBody>
        {s.canRecall ? <MessageBarActions>{recallButton}</MessageBarActions> : null}
      </MessageBar>
    );
  }

  if (s.status === 'SUBMITTED') {
    return (
      <MessageBar intent="info" layout="multiline" role="status">
        <MessageBarBody>
          <MessageBarTitle>Submitted for Approval</MessageBarTitle>
          Your {decisions(s.totalDecisions)} were submitted {s.submittedAt ? `on ${formatDateTime(s.submittedAt)} ` : ''}and are locked while they await an
          administrator&apos;s approval. Recall them to make changes.
        </MessageBarBody>
        {s.canRecall ? <MessageBarActions>{recallButton}</MessageBarActions> : null}
      </MessageBar>
    );
  }

  if (s.status === 'RETURNED') {
    return (
      <MessageBar intent="warning" layout="multiline" role="status">
        <MessageBarBody>
          <MessageBarTitle>Returned</MessageBarTitle>
          An administrator returned your decisions{s.reviewComment ? <>: “{s.reviewComment}”</> : '.'} Make the changes needed, then submit them again.
          {notes}
        </MessageBarBody>
        {s.hasDecisions ? <MessageBarActions>{submitButton}</MessageBarActions> : null}
      </MessageBar>
    );
  }

  if (!s.hasDecisions) {
    return (
      <MessageBar intent="info" layout="multiline" role="status">
        <MessageBarBody>
          <MessageBarTitle>No decisions yet</MessageBarTitle>
          Retain or remove your assigned risks below. Once you have made decisions, submit them all for approval.
        </MessageBarBody>
      </MessageBar>
    );
  }

  return (
    <MessageBar intent="info" layout="multiline" role="status">
      <MessageBarBody>
        <MessageBarTitle>{decisions(s.totalDecisions)} ready</MessageBarTitle>
        When you are done, submit all your decisions for approval. They are locked once submitted.
      </MessageBarBody>
      <MessageBarActions>{submitButton}</MessageBarActions>
    </MessageBar>
  );
}

/**
 * The submission area at a later stage of a multi-stage period: the
 * reviewer's decisions at their stage, submitted with submitStageDecisions.
 * A submitted stage is final for that stage (no recall, no approval of its
 * own): its decisions go on to the next stage, or to the administrator's
 * approval after the last.
 */
function StageSubmission({
  stage,
  stageName,
  state: s,
}: {
  stage: number;
  stageName: string;
  state: Pick<SubmissionPanel_status$data, 'isSubmitted' | 'hasDecisions' | 'totalDecisions' | 'submittedAt' | 'nextStageName'>;
}) {
  const notify = useNotify();
  const [commit, submitting] = useMutation<SubmissionPanelSubmitStageMutation>(submitStageMutation);
  const named = `Stage ${stage} (${stageName})`;
  const next = s.nextStageName !== null ? `stage ${stage + 1} (${s.nextStageName})` : "the administrator's approval";
  const submit = () => {
    const fail = (message?: string) => notify({ title: 'Submission Failed', description: message || 'Failed to submit decisions', intent: 'error' });
    commit({
      variables: {},
      updater: (store, response) => {
        if (response?.submitStageDecisions.__typename !== 'MutationSubmitStageDecisionsSuccess') return;
        const state = store.getRoot().getLinkedRecord('submissionStatus');
        if (!state) return;
        state.setValue(true, 'isSubmitted');
        state.setValue('SUBMITTED', 'status');
        state.setValue(new Date().toISOString(), 'submittedAt');
      },
      onCompleted: ({ submitStageDecisions: r }) => {
        if (r.__typename !== 'MutationSubmitStageDecisionsSuccess') return fail(errorMessage(r));
        notify({ title: 'Decisions Submitted', description: `${decisions(r.data ?? s.totalDecisions)} of ${named} submitted`, intent: 'success' });
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };
  if (s.isSubmitted) {
    return (
      <MessageBar intent="success" layout="multiline" role="status">
        <MessageBarBody>
          <MessageBarTitle>{`${named} submitted`}</MessageBarTitle>
          Your {decisions(s.totalDecisions)} {s.submittedAt ? `were submitted on ${formatDateTime(s.submittedAt)} and ` : ''}are final for your stage; they went
          on to {next}.
        </MessageBarBody>
      </MessageBar>
    );
  }
  return (
    <MessageBar intent="info" layout="multiline" role="status">
      <MessageBarBody>
        <MessageBarTitle>{s.hasDecisions ? `${named}: ${decisions(s.totalDecisions)} ready` : `${named}: no decisions yet`}</MessageBarTitle>
        Confirm or overturn the earlier decisions passed on to you below; an overturn needs a comment. Once you submit, your decisions are final for your stage
        and go on to {next}.
      </MessageBarBody>
      {s.hasDecisions ? (
        <MessageBarActions>
          <Button appearance="primary" icon={submitting ? <Spinner size="tiny" /> : <Send20Regular />} disabled={submitting} onClick={submit}>
            Submit All Decisions
          </Button>
        </MessageBarActions>
      ) : null}
    </MessageBar>
  );
}
