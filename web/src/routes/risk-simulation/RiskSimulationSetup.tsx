// The simulation's setup (SPEC §2, §4, §5): a user and one of their risks
// chosen by type-ahead from the loaded data, 'Filter by Composite Roles
// Only', and scenarios: each names a role (one of the user's, or auto-named
// with a fixed prefix and a running number), starts as retain, toggles and
// can be deleted. For a user of a loaded system extract a scenario may also
// add a role (the engine answers).
import { Button, Card, Checkbox, Field, makeStyles, MessageBar, MessageBarBody, Subtitle2, Switch, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Play20Regular } from '@fluentui/react-icons';
import { useMemo } from 'react';
import { useRelayEnvironment } from 'react-relay';
import { SearchCombobox, type PickerOption } from '../../components/lists/SearchCombobox';
import { riskLookup, roleLookup, userLookup } from './lookups';

/** SPEC §3: an auto-named scenario role is this prefix and a running number. */
export const SCENARIO_PREFIX = 'SCENARIO_ROLE_';
export const INCOMPLETE = 'Please select user, risk, and configure scenarios';

export type Scenario = { key: number; roleProfile: string; action: 'RETAIN' | 'REMOVE' | 'ADD' };
export type SetupState = {
  user: PickerOption | null;
  risk: PickerOption | null;
  compositeRolesOnly: boolean;
  scenarios: Scenario[];
  /** The running number of the last auto-named scenario. */
  counter: number;
};
export const EMPTY_SETUP: SetupState = { user: null, risk: null, compositeRolesOnly: false, scenarios: [], counter: 0 };

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, padding: tokens.spacingHorizontalXL },
  pickers: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))', gap: tokens.spacingHorizontalL },
  scenarios: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, margin: 0, padding: 0, listStyleType: 'none' },
  scenario: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  role: { flexGrow: 1, minWidth: '200px' },
  actions: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function RiskSimulationSetup({
  state,
  onChange,
  onAddScenarioWithoutRisk,
  onRun,
  running,
  problem,
}: {
  state: SetupState;
  onChange: (next: SetupState) => void;
  onAddScenarioWithoutRisk: () => void;
  onRun: () => void;
  running: boolean;
  problem: string | null;
}) {
  const styles = useStyles();
  const environment = useRelayEnvironment();
  const userId = state.user?.value ?? '';
  const users = useMemo(() => userLookup(environment), [environment]);
  const risks = useMemo(() => riskLookup(environment, userId), [environment, userId]);
  const roles = useMemo(() => roleLookup(environment, userId, state.compositeRolesOnly), [environment, userId, state.compositeRolesOnly]);
  const set = (patch: Partial<SetupState>) => onChange({ ...state, ...patch });
  const setScenario = (key: number, patch: Partial<Scenario>) => set({ scenarios: state.scenarios.map((s) => (s.key === key ? { ...s, ...patch } : s)) });

  const addScenario = () => {
    if (!state.risk) return onAddScenarioWithoutRisk();
    const n = state.counter + 1;
    set({ counter: n, scenarios: [...state.scenarios, { key: n, roleProfile: `${SCENARIO_PREFIX}${n}`, action: 'RETAIN' }] });
  };

  return (
    <Card className={styles.card}>
      <div className={styles.pickers}>
        <Field label="User" hint="Type to search users by ID or name">
          <SearchCombobox
            lookup={users}
            value={userId}
            placeholder="Select user"
            emptyText="No users found"
            onChange={(user) => set({ user, risk: null, scenarios: [], counter: 0 })}
          />
        </Field>
        <Field label="Risk" hint={state.user ? "The user's access risks" : 'Select a user first'}>
          <SearchCombobox
            key={userId}
            lookup={risks}
            value={state.risk?.value ?? ''}
            placeholder="Select risk"
            emptyText="No risks found"
            disabled={!state.user}
            onChange={(risk) => set({ risk })}
          />
        </Field>
      </div>
      <Checkbox
        label="Filter by Composite Roles Only"
        checked={state.compositeRolesOnly}
        onChange={(_, d) => set({ compositeRolesOnly: Boolean(d.checked) })}
      />
      <Subtitle2 as="h2">Scenarios</Subtitle2>
      {state.scenarios.length === 0 ? (
        <span className={styles.muted}>No scenarios yet. Add one, pick the role it changes and set it to remove.</span>
      ) : (
        <ul className={styles.scenarios} aria-label="Scenarios">
          {state.scenarios.map((s, i) => (
            <li key={s.key} className={styles.scenario}>
              <Field className={styles.role} label={`Scenario ${i + 1} role`}>
                <SearchCombobox
                  key={`${userId}|${state.compositeRolesOnly}`}
                  lookup={roles}
                  value={s.roleProfile}
                  placeholder="Select role"
                  emptyText="No roles found"
                  onChange={(o) => setScenario(s.key, { roleProfile: o?.value ?? s.roleProfile })}
                />
              </Field>
              <Switch
                label={s.action === 'REMOVE' ? 'Remove' : 'Retain'}
                checked={s.action === 'REMOVE'}
                disabled={s.action === 'ADD'}
                aria-label={`Scenario ${i + 1}: remove the role`}
                onChange={(_, d) => setScenario(s.key, { action: d.checked ? 'REMOVE' : 'RETAIN' })}
              />
              <Checkbox
                label="Add"
                checked={s.action === 'ADD'}
                aria-label={`Scenario ${i + 1}: add the role to the user`}
                onChange={(_, d) => setScenario(s.key, { action: d.checked ? 'ADD' : 'RETAIN' })}
              />
              <Button
                appearance="subtle"
                icon={<Delete20Regular />}
                aria-label={`Delete scenario ${i + 1}`}
                onClick={() => set({ scenarios: state.scenarios.filter((x) => x.key !== s.key) })}
              />
            </li>
          ))}
        </ul>
      )}
      {problem ? (
        <MessageBar intent="error">
          <MessageBarBody>{problem}</MessageBarBody>
        </MessageBar>
      ) : null}
      <div className={styles.actions}>
        <Button icon={<Add20Regular />} onClick={addScenario}>
          Add Scenario
        </Button>
        <Button appearance="primary" icon={<Play20Regular />} onClick={onRun} disabled={running}>
          {running ? 'Running...' : 'Run Risk Simulation'}
        </Button>
      </div>
    </Card>
  );
}
