import { Button, Card, CardHeader, Caption1, Checkbox, Field, Input, Label, Select, Spinner, Subtitle2, useId } from '@fluentui/react-components';
import { Play20Regular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { StartRunForm_query$key } from '../../__generated__/StartRunForm_query.graphql';
import type { StartRunFormMutation } from '../../__generated__/StartRunFormMutation.graphql';
import { failureOf, useFieldErrors } from '../../components/forms/FormDialog';
import { thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { usePanelStyles } from './panelStyles';

const startMutation = graphql`
  mutation StartRunFormMutation($ruleSetId: ID!, $systems: [String!], $asOf: String) {
    startAccessAnalysis(ruleSetId: $ruleSetId, systems: $systems, asOf: $asOf) {
      __typename
      ... on MutationStartAccessAnalysisSuccess {
        data {
          id
        }
      }
      ... on Error {
        message
      }
      ... on BaseError {
        code
      }
      ... on ValidationError {
        code
        field
      }
    }
  }
`;

type FieldName = 'ruleSetId' | 'systems' | 'asOf';

/** The toast's title for a refusal, by its error code. */
function refusalTitle(code: string | undefined): string {
  if (code === 'CONFLICT') return 'Analysis Already Running';
  if (code === 'NOT_FOUND') return 'Rule Set Not Found';
  return 'Analysis Not Started';
}

/** Start a run: a rule set version (the active ones first), the systems (all, or some), an optional analysis date. */
export function StartRunForm({ query, onStarted }: { query: StartRunForm_query$key; onStarted: () => void }) {
  const styles = usePanelStyles();
  const notify = useNotify();
  const data = useFragment(
    graphql`
      fragment StartRunForm_query on Query @argumentDefinitions(count: { type: "Int!" }) {
        accessRuleSets {
          id
          name
          version
          active
        }
        currentExtracts: accessExtracts(currentOnly: true, first: $count) {
          edges {
            node {
              system
            }
          }
        }
      }
    `,
    query,
  );
  const versions = [...data.accessRuleSets].sort((a, b) => Number(b.active) - Number(a.active));
  const systems = [...new Set(data.currentExtracts.edges.map((e) => e.node.system))].sort();
  const [ruleSetId, setRuleSetId] = useState('');
  const [all, setAll] = useState(true);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [asOf, setAsOf] = useState('');
  const { errors, setErrors, clearError, validation } = useFieldErrors<FieldName>();
  const systemsLabel = useId('systems-');
  const [commit, inFlight] = useMutation<StartRunFormMutation>(startMutation);
  const chosen = ruleSetId || versions[0]?.id || '';
  // A version that is not the active one of its name runs as a test: what it would change, never reviewed.
  const isTest = versions.some((v) => v.id === chosen && !v.active);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return setErrors({ ruleSetId: 'Upload a rule set first.' });
    if (!all && picked.size === 0) return setErrors({ systems: 'Pick at least one system, or analyse all of them.' });
    setErrors({});
    const fail = (title: string, message?: string) => notify({ title, description: message || 'Failed to start the analysis', intent: 'error' });
    commit({
      variables: { ruleSetId: chosen, systems: all ? null : [...picked], asOf: asOf || null },
      onCompleted: ({ startAccessAnalysis: r }) => {
        if (r.__typename === 'MutationStartAccessAnalysisSuccess') {
          notify({
            title: isTest ? 'Test Run Started' : 'Analysis Started',
            description: isTest
              ? 'The test run’s progress shows in the list below; it is not sent to the review.'
              : 'The run’s progress shows in the list below.',
            intent: 'success',
          });
          onStarted();
          return;
        }
        const { message, field } = failureOf(r, ['ruleSetId', 'systems', 'asOf'] as const);
        if (field) setErrors({ [field]: message });
        fail(refusalTitle('code' in r ? r.code : undefined), message);
      },
      onError: (e) => fail('Analysis Not Started', thrownMessage(e)),
    });
  };

  const pickRuleSet = (id: string) => {
    setRuleSetId(id);
    clearError('ruleSetId');
  };
  const pickDate = (date: string) => {
    setAsOf(date);
    clearError('asOf');
  };
  const toggle = (system: string, on: boolean) => {
    clearError('systems');
    setPicked((p) => {
      const next = new Set(p);
      if (on) next.add(system);
      else next.delete(system);
      return next;
    });
  };

  return (
    <Card className={styles.card}>
      <CardHeader
        header={
          <Subtitle2 as="h2" className={styles.title}>
            Start Analysis
          </Subtitle2>
        }
        description={
          <Caption1 className={styles.muted}>Finds every user holding all the functions of an enabled risk in the systems’ current extracts.</Caption1>
        }
      />
      <form className={styles.form} onSubmit={submit} noValidate>
        <Field
          label="Rule set version"
          required
          hint={
            isTest
              ? 'A test run: it shows the conflicts this version would add or remove against the active version’s latest run, and cannot be sent to the review.'
              : undefined
          }
          {...validation('ruleSetId')}
        >
          <Select value={chosen} onChange={(_, d) => pickRuleSet(d.value)} disabled={versions.length === 0}>
            {versions.length === 0 ? <option value="">No rule sets yet</option> : null}
            {versions.map((v) => (
              <option key={v.id} value={v.id}>
                {`${v.name} v${v.version}${v.active ? ' (active)' : ' (test)'}`}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Analysis date (optional)" hint="Left empty, today" {...validation('asOf')}>
          <Input type="date" value={asOf} onChange={(_, d) => pickDate(d.value)} />
        </Field>
        <div role="group" aria-labelledby={systemsLabel} className={styles.progress}>
          <Label id={systemsLabel}>Systems</Label>
          <Checkbox
            label="All systems"
            checked={all}
            onChange={(_, d) => {
              setAll(Boolean(d.checked));
              clearError('systems');
            }}
          />
          {all ? null : systems.map((s) => <Checkbox key={s} label={s} checked={picked.has(s)} onChange={(_, d) => toggle(s, Boolean(d.checked))} />)}
          {systems.length === 0 ? <Caption1 className={styles.muted}>No system data yet.</Caption1> : null}
          {errors.systems ? (
            <Caption1 role="alert" className={styles.error}>
              {errors.systems}
            </Caption1>
          ) : null}
        </div>
        <div className={styles.actions}>
          <Button type="submit" appearance="primary" icon={inFlight ? <Spinner size="tiny" /> : <Play20Regular />} disabled={inFlight}>
            {inFlight ? 'Starting...' : 'Start Analysis'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
