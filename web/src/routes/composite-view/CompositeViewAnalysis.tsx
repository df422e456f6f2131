// The composite view's 'Risk Analysis' of a user (SPEC §2, §4 'User analysis
// status', §8): the server analyses the user's rows with the decisions not
// yet saved over the saved ones, stores the result and answers red or green
// per risk id; the user shows a red/green dot and a RISK or SAFE badge.
import { Badge, Button, makeStyles, tokens } from '@fluentui/react-components';
import { DataPie20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { CompositeViewAnalysisMutation } from '../../__generated__/CompositeViewAnalysisMutation.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { ColorDot } from '../../domain/risks/riskDisplay';
import { useRoleDecisions } from './CompositeViewDecisions';

const mutation = graphql`
  mutation CompositeViewAnalysisMutation($userId: String!, $roleDecisions: [AnalysisRoleDecisionInput!]) {
    runRiskAnalysis(userId: $userId, roleDecisions: $roleDecisions) {
      __typename
      ... on MutationRunRiskAnalysisSuccess {
        data {
          userStatus
          redCount
          totalRisks
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const useStyles = makeStyles({
  status: { display: 'inline-flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
});

export type AnalysisSummary = { readonly userStatus: string; readonly redCount: number; readonly totalRisks: number };

/** The 'Risk Analysis' button and, once analysed, the status dot and RISK/SAFE badge of one user. */
export function CompositeViewAnalysis({ userId, name, latest }: { userId: string; name: string; latest: AnalysisSummary | null | undefined }) {
  const styles = useStyles();
  const notify = useNotify();
  const { pendingFor } = useRoleDecisions();
  const [commit, running] = useMutation<CompositeViewAnalysisMutation>(mutation);
  const [result, setResult] = useState<AnalysisSummary | null>(null);
  const shown = result ?? latest ?? null;

  const fail = (message?: string) => notify({ title: 'Analysis Failed', description: message || 'The analysis could not be run.', intent: 'error' });
  const run = () =>
    commit({
      variables: {
        userId,
        roleDecisions: pendingFor(userId).map((c) => ({ userId, compositeBusinessRole: c.compositeBusinessRole, decision: c.decision })),
      },
      onCompleted: ({ runRiskAnalysis: r }) => {
        if (r.__typename !== 'MutationRunRiskAnalysisSuccess' || !r.data) return fail(errorMessage(r));
        setResult(r.data);
        const status = r.data.userStatus === 'RED' ? 'RED' : 'GREEN';
        notify({
          title: 'Baseline vs Simulation Analysis Complete',
          description: `${name}: ${status}. ${r.data.redCount} of ${r.data.totalRisks} risk IDs RED.`,
          intent: r.data.userStatus === 'RED' ? 'warning' : 'success',
        });
      },
      onError: (e) => fail(thrownMessage(e)),
    });

  const red = shown?.userStatus === 'RED';
  return (
    <>
      {shown ? (
        <span className={styles.status}>
          <ColorDot
            color={red ? 'red' : 'green'}
            label={`Analysis status: ${red ? 'red' : 'green'}`}
            title={`${shown.redCount} of ${shown.totalRisks} risk IDs red`}
          />
          <Badge appearance="filled" color={red ? 'danger' : 'success'} shape="rounded">
            {red ? 'RISK' : 'SAFE'}
          </Badge>
        </span>
      ) : null}
      <Button size="small" icon={<DataPie20Regular />} disabled={running} onClick={run} aria-label={`Risk Analysis for ${name}`}>
        Risk Analysis
      </Button>
    </>
  );
}
