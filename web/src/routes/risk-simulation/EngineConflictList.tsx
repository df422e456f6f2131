// Conflicts the engine found on one side of a simulation (those that would
// appear, or those that would go), each with its paths: function, system,
// action and role (a composite's single role after the composite).
import { Badge, Body1, makeStyles, Subtitle2, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { EngineConflictList_conflicts$key } from '../../__generated__/EngineConflictList_conflicts.graphql';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minWidth: 0 },
  conflict: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS, minWidth: 0 },
  heading: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  scroll: { overflowX: 'auto' },
  table: { tableLayout: 'auto' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function EngineConflictList({
  title,
  conflicts: conflictsKey,
  empty,
  tone,
}: {
  title: string;
  conflicts: EngineConflictList_conflicts$key;
  empty: string;
  tone: 'danger' | 'success';
}) {
  const styles = useStyles();
  const conflicts = useFragment(
    graphql`
      fragment EngineConflictList_conflicts on SimulationConflict @relay(plural: true) {
        riskId
        riskDescription
        riskLevel
        paths {
          functionId
          system
          action
          role
          composite
        }
      }
    `,
    conflictsKey,
  );
  return (
    <section aria-label={title} className={styles.section}>
      <Subtitle2 as="h3">
        {title} ({conflicts.length})
      </Subtitle2>
      {conflicts.length === 0 ? <Body1 className={styles.muted}>{empty}</Body1> : null}
      {conflicts.map((c) => (
        <div key={c.riskId} className={styles.conflict}>
          <div className={styles.heading}>
            <Badge appearance="tint" color={tone}>
              {c.riskId}
            </Badge>
            <Body1>{c.riskDescription}</Body1>
            {c.riskLevel ? <Body1 className={styles.muted}>{c.riskLevel}</Body1> : null}
          </div>
          {/* A table wider than its column scrolls here; focusable, so the keyboard can scroll it too. */}
          <div className={styles.scroll} tabIndex={0} role="group" aria-label={`Paths of ${c.riskId}, scrollable`}>
            <Table size="small" aria-label={`Paths of ${c.riskId}`} className={styles.table}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Function</TableHeaderCell>
                  <TableHeaderCell>System</TableHeaderCell>
                  <TableHeaderCell>Action</TableHeaderCell>
                  <TableHeaderCell>Role</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {c.paths.map((p, i) => (
                  <TableRow key={`${p.functionId}|${p.system}|${p.action}|${p.role}|${p.composite}|${i}`}>
                    <TableCell>{p.functionId}</TableCell>
                    <TableCell>{p.system}</TableCell>
                    <TableCell>{p.action}</TableCell>
                    <TableCell>
                      {p.composite || p.role}
                      {p.composite ? <span className={styles.muted}> / {p.role}</span> : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </div>
      ))}
    </section>
  );
}
