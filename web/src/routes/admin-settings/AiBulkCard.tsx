import { Button, Caption1, Card, CardHeader, Field, Input, makeStyles, ProgressBar, Text, tokens } from '@fluentui/react-components';
import { BrainCircuit24Regular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { graphql, useFragment, useMutation, useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import type { AiBulkCard_state$key } from '../../__generated__/AiBulkCard_state.graphql';
import type { AiBulkCardCapMutation } from '../../__generated__/AiBulkCardCapMutation.graphql';
import type { AiBulkCardStartMutation } from '../../__generated__/AiBulkCardStartMutation.graphql';
import type { AiBulkCardSubscription, AiBulkCardSubscription$data } from '../../__generated__/AiBulkCardSubscription.graphql';
import { errorMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { formatCount } from '../../components/layout/StatTile';

const startMutation = graphql`
  mutation AiBulkCardStartMutation {
    startAiBulkCategorization {
      __typename
      ... on Error {
        message
      }
    }
  }
`;

const capMutation = graphql`
  mutation AiBulkCardCapMutation($amountUsd: String!) {
    saveAiSpendCap(amountUsd: $amountUsd) {
      __typename
      ... on Error {
        message
      }
    }
  }
`;

const subscription = graphql`
  subscription AiBulkCardSubscription {
    aiBulkProgress {
      status
      total
      done
      failed
      costUsd
      error
    }
  }
`;

type Progress = NonNullable<AiBulkCardSubscription$data['aiBulkProgress']>;

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalS },
});

const STATUS: Record<string, string> = {
  RUNNING: 'Running',
  COMPLETED: 'Completed',
  CAPPED: 'Stopped at the spend cap',
  FAILED: 'Failed',
};

/** Beyond the spec: categorise every uncategorised risk in the background, with an estimate, a spend cap and live progress. */
export function AiBulkCard({ state, onChanged }: { state: AiBulkCard_state$key; onChanged: () => void }) {
  const styles = useStyles();
  const notify = useNotify();
  const s = useFragment(
    graphql`
      fragment AiBulkCard_state on AiBulkCategorization {
        estimate {
          uncategorized
          estimatedCostUsd
          spendCapUsd
        }
        run {
          status
          total
          done
          failed
          costUsd
          error
        }
      }
    `,
    state,
  );
  const [live, setLive] = useState<Progress | null>(null);
  const [cap, setCap] = useState(s.estimate.spendCapUsd == null ? '' : String(s.estimate.spendCapUsd));
  const [start, starting] = useMutation<AiBulkCardStartMutation>(startMutation);
  const [saveCap, savingCap] = useMutation<AiBulkCardCapMutation>(capMutation);
  const config = useMemo<GraphQLSubscriptionConfig<AiBulkCardSubscription>>(
    () => ({
      subscription,
      variables: {},
      onNext: (d) => {
        const p = d?.aiBulkProgress;
        if (!p) return;
        setLive(p);
        if (p.status !== 'RUNNING') onChanged();
      },
    }),
    [onChanged],
  );
  useSubscription<AiBulkCardSubscription>(config);

  const run = live ?? s.run;
  const running = run?.status === 'RUNNING';
  const fail = (title: string, message?: string) => notify({ title, description: message || 'Please try again', intent: 'error' });

  const begin = () =>
    start({
      variables: {},
      onCompleted: ({ startAiBulkCategorization: r }) => {
        if (r.__typename !== 'MutationStartAiBulkCategorizationSuccess') return fail('Bulk Categorization Failed', errorMessage(r));
        notify({
          title: 'Bulk Categorization Started',
          description: `${s.estimate.uncategorized} risks will be categorized in the background`,
          intent: 'success',
        });
      },
      onError: () => fail('Bulk Categorization Failed'),
    });

  const storeCap = () =>
    saveCap({
      variables: { amountUsd: cap.trim() },
      onCompleted: ({ saveAiSpendCap: r }) => {
        if (r.__typename !== 'MutationSaveAiSpendCapSuccess') return fail('Update Failed', errorMessage(r));
        notify({ title: 'Spend Cap Updated', description: `Bulk categorization stops before $${Number(cap).toFixed(4)}`, intent: 'success' });
        onChanged();
      },
      onError: () => fail('Update Failed'),
    });

  return (
    <Card className={styles.card} aria-label="Bulk AI Categorization">
      <CardHeader
        image={<BrainCircuit24Regular />}
        header={<Text weight="semibold">Bulk AI Categorization</Text>}
        description={<Caption1 className={styles.muted}>Suggest a category for every risk that has none</Caption1>}
      />
      <Text>
        {formatCount(s.estimate.uncategorized)} risks without an AI category; estimated cost ${s.estimate.estimatedCostUsd.toFixed(4)}
        {s.estimate.spendCapUsd != null ? ` (spend cap $${s.estimate.spendCapUsd.toFixed(4)})` : ' (no spend cap)'}.
      </Text>
      <div className={styles.row}>
        <Field label="Spend cap (USD)">
          <Input type="number" min={0} step="0.01" value={cap} onChange={(_, d) => setCap(d.value)} />
        </Field>
        <Button disabled={savingCap || !cap} onClick={storeCap}>
          Save Cap
        </Button>
        <Button appearance="primary" disabled={starting || running || s.estimate.uncategorized === 0} onClick={begin}>
          Categorize All
        </Button>
      </div>
      {run ? (
        <Field
          label={`${STATUS[run.status] ?? run.status}: ${run.done} of ${run.total} categorized${run.failed ? `, ${run.failed} failed` : ''}; spent $${run.costUsd.toFixed(4)}`}
          validationMessage={run.error ?? undefined}
          validationState={run.status === 'FAILED' ? 'error' : 'none'}
        >
          <ProgressBar value={run.total ? (run.done + run.failed) / run.total : 1} thickness="large" />
        </Field>
      ) : null}
    </Card>
  );
}
