// What if a composite role were removed from everyone:
// how many users lose how many risks, and which users would turn green,
// answered by the server in one query over the loaded data.
import {
  Body1,
  Button,
  Card,
  Field,
  makeStyles,
  Subtitle1,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useMemo, useRef, useState } from 'react';
import { graphql, useRelayEnvironment } from 'react-relay';
import { fetchQuery, type Subscription } from 'relay-runtime';
import type { RoleWhatIfQuery, RoleWhatIfQuery$data } from '../../__generated__/RoleWhatIfQuery.graphql';
import { useNotify } from '../../components/forms/toast';
import { ColorDot } from '../../domain/risks/riskDisplay';
import { SearchCombobox } from '../../components/lists/SearchCombobox';
import { compositeRoleLookup } from './lookups';

const query = graphql`
  query RoleWhatIfQuery($role: String!) {
    roleWhatIf(compositeBusinessRole: $role) {
      compositeBusinessRole
      usersAffected
      risksLost
      usersLosingRisks
      usersTurningGreen
      users {
        userId
        userName
        risksHeld
        risksLost
        redBefore
        redAfter
      }
    }
  }
`;

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalXL },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', columnGap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalS },
  picker: { flexGrow: 1, minWidth: '220px' },
  muted: { color: tokens.colorNeutralForeground3 },
  scroll: { overflowX: 'auto' },
  status: { display: 'inline-flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
});

const statusOf = (red: boolean) => (red ? 'red' : 'green');

export function RoleWhatIf() {
  const styles = useStyles();
  const notify = useNotify();
  const environment = useRelayEnvironment();
  const roles = useMemo(() => compositeRoleLookup(environment), [environment]);
  const [role, setRole] = useState('');
  const [result, setResult] = useState<RoleWhatIfQuery$data['roleWhatIf'] | null>(null);
  const [running, setRunning] = useState(false);
  const current = useRef<Subscription | null>(null);
  useEffect(() => () => current.current?.unsubscribe(), []);

  const run = () => {
    if (!role) return notify({ title: 'Select Role', description: 'Please select a composite role', intent: 'error' });
    current.current?.unsubscribe();
    setRunning(true);
    current.current = fetchQuery<RoleWhatIfQuery>(environment, query, { role }, { fetchPolicy: 'network-only' }).subscribe({
      next: (d) => {
        setResult(d.roleWhatIf);
        setRunning(false);
      },
      error: (e: unknown) => {
        setRunning(false);
        notify({ title: 'Simulation Failed', description: e instanceof Error ? e.message : 'The what-if could not be run.', intent: 'error' });
      },
    });
  };

  return (
    <Card className={styles.card}>
      <Subtitle1 as="h2">What if a composite role were removed from everyone?</Subtitle1>
      <div className={styles.row}>
        <Field className={styles.picker} label="Composite role">
          <SearchCombobox
            lookup={roles}
            value={role}
            placeholder="Select composite role"
            emptyText="No composite roles found"
            onChange={(o) => setRole(o?.value ?? '')}
          />
        </Field>
        <Button appearance="primary" onClick={run} disabled={running}>
          {running ? 'Running...' : 'Run What-If'}
        </Button>
      </div>
      {result ? (
        <>
          <Body1 aria-live="polite">
            Removing {result.compositeBusinessRole}: {result.usersAffected} {result.usersAffected === 1 ? 'user' : 'users'} affected, {result.risksLost}{' '}
            {result.risksLost === 1 ? 'risk' : 'risks'} lost across {result.usersLosingRisks} {result.usersLosingRisks === 1 ? 'user' : 'users'},{' '}
            {result.usersTurningGreen} {result.usersTurningGreen === 1 ? 'user' : 'users'} would turn green.
          </Body1>
          {result.users.length ? (
            <div className={styles.scroll}>
              <Table size="small" aria-label="Users holding the role">
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell>User</TableHeaderCell>
                    <TableHeaderCell>Risks held</TableHeaderCell>
                    <TableHeaderCell>Risks lost</TableHeaderCell>
                    <TableHeaderCell>Status before → after</TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {result.users.map((u) => (
                    <TableRow key={u.userId}>
                      <TableCell>
                        {u.userName || u.userId} <span className={styles.muted}>({u.userId})</span>
                      </TableCell>
                      <TableCell>{u.risksHeld}</TableCell>
                      <TableCell>{u.risksLost}</TableCell>
                      <TableCell>
                        <span className={styles.status}>
                          <ColorDot color={statusOf(u.redBefore)} label={statusOf(u.redBefore)} />
                          {statusOf(u.redBefore)} →
                          <ColorDot color={statusOf(u.redAfter)} label={statusOf(u.redAfter)} />
                          {statusOf(u.redAfter)}
                        </span>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          ) : null}
          {result.usersAffected > result.users.length ? (
            <Body1 className={styles.muted}>
              First {result.users.length} of {result.usersAffected} users shown (those turning green first).
            </Body1>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}
