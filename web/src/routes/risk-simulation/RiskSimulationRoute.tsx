// SPEC §2 'Risk Simulation & Analysis' (administrators): set up a simulation
// on the loaded data, run it, see MATCH or NO MATCH with both tables, go back
// to the setup; recent runs with who ran them; the role-wide what-if.
import { Body1, Card, makeStyles, Spinner, Subtitle1, tokens } from '@fluentui/react-components';
import { Suspense, useEffect, useState } from 'react';
import { graphql, useMutation, usePreloadedQuery, useRelayEnvironment, type PreloadedQuery } from 'react-relay';
import { createOperationDescriptor, getRequest, type Disposable } from 'relay-runtime';
import { useLoaderData } from 'react-router';
import type { RiskSimulationRouteQuery } from '../../__generated__/RiskSimulationRouteQuery.graphql';
import type { RiskSimulationRouteRunMutation, RiskSimulationRouteRunMutation$variables } from '../../__generated__/RiskSimulationRouteRunMutation.graphql';
import type { RiskSimulationResult_outcome$key } from '../../__generated__/RiskSimulationResult_outcome.graphql';
import { AdminOnly } from '../../shell/AccessGate';
import { PageHeader } from '../../components/layout/PageHeader';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { EMPTY_SETUP, INCOMPLETE, RiskSimulationSetup, type SetupState } from './RiskSimulationSetup';
import { RiskSimulationResult } from './RiskSimulationResult';
import { RoleWhatIf } from './RoleWhatIf';
import type { RiskSimulationPrepared } from './riskSimulationLoader';
import { formatDateTime } from '../../components/format/dates';

const query = graphql`
  query RiskSimulationRouteQuery($runs: Int!) {
    simulationRuns(limit: $runs) {
      runId
      userId
      riskId
      match
      scenarioCount
      runBy
      createdAt
    }
  }
`;

const mutation = graphql`
  mutation RiskSimulationRouteRunMutation($userId: String!, $riskId: String!, $roleScenarios: [SimulationScenarioInput!]!, $compositeRolesOnly: Boolean) {
    runSimulation(userId: $userId, riskId: $riskId, roleScenarios: $roleScenarios, compositeRolesOnly: $compositeRolesOnly) {
      __typename
      ... on MutationRunSimulationSuccess {
        data {
          match
          originalCount
          simulatedCount
          ...RiskSimulationResult_outcome
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalXL },
  runs: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  muted: { color: tokens.colorNeutralForeground3 },
});

type Shown = { outcome: RiskSimulationResult_outcome$key; variables: RiskSimulationRouteRunMutation$variables; hold: Disposable };

const runOperation = (variables: RiskSimulationRouteRunMutation$variables) => createOperationDescriptor(getRequest(mutation), variables);

/**
 * Nothing retains a mutation's response once the mutation is done, so
 * Relay's garbage collection could take the records the shown result reads
 * through its fragments. A run's response is held from before it is sent;
 * once shown, it is retained while it is shown and that hold let go.
 */
function useRetainedWhileShown(shown: Shown | null) {
  const environment = useRelayEnvironment();
  useEffect(() => {
    if (!shown) return;
    const kept = environment.retain(runOperation(shown.variables));
    shown.hold.dispose();
    return () => kept.dispose();
  }, [environment, shown]);
}

export default function RiskSimulationRoute() {
  return (
    <AdminOnly>
      <RiskSimulationScreen />
    </AdminOnly>
  );
}

function RiskSimulationScreen() {
  const styles = useStyles();
  const notify = useNotify();
  const prepared = useLoaderData() as RiskSimulationPrepared | null;
  const { queryRef, refetch } = usePreparedQuery<RiskSimulationRouteQuery>(query, prepared?.query);
  const [setup, setSetup] = useState<SetupState>(EMPTY_SETUP);
  const [problem, setProblem] = useState<string | null>(null);
  const environment = useRelayEnvironment();
  const [shown, setShown] = useState<Shown | null>(null);
  const [commit, running] = useMutation<RiskSimulationRouteRunMutation>(mutation);
  useRetainedWhileShown(shown);

  const fail = (message?: string) => notify({ title: 'Simulation Failed', description: message || 'The simulation could not be run.', intent: 'error' });
  const run = () => {
    if (!setup.user || !setup.risk || setup.scenarios.length === 0) return setProblem(INCOMPLETE);
    setProblem(null);
    const variables = {
      userId: setup.user.value,
      riskId: setup.risk.value,
      compositeRolesOnly: setup.compositeRolesOnly,
      roleScenarios: setup.scenarios.map((s) => ({ riskId: setup.risk!.value, roleProfile: s.roleProfile, action: s.action })),
    };
    const hold = environment.retain(runOperation(variables));
    commit({
      variables,
      onCompleted: ({ runSimulation: r }) => {
        if (r.__typename !== 'MutationRunSimulationSuccess' || !r.data) {
          hold.dispose();
          return fail(errorMessage(r));
        }
        setShown({ outcome: r.data, variables, hold });
        refetch();
        notify({
          title: 'Simulation Complete',
          description: `${r.data.match ? 'MATCH' : 'NO MATCH'}: ${r.data.simulatedCount} of ${r.data.originalCount} access items remain.`,
          intent: 'success',
        });
      },
      onError: (e) => {
        hold.dispose();
        fail(thrownMessage(e));
      },
    });
  };

  return (
    <>
      <PageHeader title="Risk Simulation & Analysis" subtitle="Try removing roles from a user before deciding, on the loaded data." />
      <div className={styles.stack}>
        {shown ? (
          <RiskSimulationResult outcome={shown.outcome} onBack={() => setShown(null)} />
        ) : (
          <RiskSimulationSetup
            state={setup}
            onChange={(next) => {
              setSetup(next);
              setProblem(null);
            }}
            onAddScenarioWithoutRisk={() => notify({ title: 'Select Risk', description: 'Please select a risk before adding scenarios', intent: 'error' })}
            onRun={run}
            running={running}
            problem={problem}
          />
        )}
        <RoleWhatIf />
        <Card className={styles.card}>
          <Subtitle1 as="h2">Recent Simulations</Subtitle1>
          {queryRef == null ? (
            <Spinner size="small" label="Loading recent simulations..." />
          ) : (
            <Suspense fallback={<Spinner size="small" label="Loading recent simulations..." />}>
              <RecentRuns queryRef={queryRef} />
            </Suspense>
          )}
        </Card>
      </div>
    </>
  );
}

function RecentRuns({ queryRef }: { queryRef: PreloadedQuery<RiskSimulationRouteQuery> }) {
  const styles = useStyles();
  const data = usePreloadedQuery<RiskSimulationRouteQuery>(query, queryRef);
  if (data.simulationRuns.length === 0) return <Body1 className={styles.muted}>No simulations run yet.</Body1>;
  return (
    <ul className={styles.runs} aria-label="Recent simulations">
      {data.simulationRuns.map((r) => (
        <li key={r.runId}>
          <Body1>
            {r.userId} · {r.riskId} · {r.match == null ? '—' : r.match ? 'MATCH' : 'NO MATCH'} · {r.scenarioCount}{' '}
            {r.scenarioCount === 1 ? 'scenario' : 'scenarios'} · by {r.runBy} · {formatDateTime(r.createdAt as string)}
          </Body1>
        </li>
      ))}
    </ul>
  );
}
