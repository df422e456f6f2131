import { Badge, Caption1, makeStyles, TableCell, TableRow, Text, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { ConflictRow_conflict$key } from '../../../__generated__/ConflictRow_conflict.graphql';

export const CONFLICT_COLUMNS = [
  { label: 'User' },
  { label: 'Risk' },
  { label: 'Business Process' },
  { label: 'Systems' },
  { label: 'Usage' },
  { label: 'How it is held' },
] as const;

/** Paths shown per conflict before 'and n more' (the CSV has them all). */
const SHOWN_PATHS = 4;

const useStyles = makeStyles({
  cell: { overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  paths: { listStyleType: 'none', margin: 0, padding: 0 },
});

/** One conflict: the user, the risk, where it is held and whether it was exercised, and the paths (function, action, role) that give it. */
export function ConflictRow({ conflict }: { conflict: ConflictRow_conflict$key }) {
  const styles = useStyles();
  const c = useFragment(
    graphql`
      fragment ConflictRow_conflict on AccessConflict {
        userId
        riskId
        riskDescription
        riskLevel
        businessProcess
        systems
        exercised
        rows {
          functionId
          system
          action
          role
          composite
        }
      }
    `,
    conflict,
  );
  // One line per (function, system, action, role, composite): the permission values are in the CSV.
  const paths = [...new Set(c.rows.map((r) => `${r.functionId} · ${r.system} · ${r.action} via ${r.role}${r.composite ? ` (${r.composite})` : ''}`))];
  return (
    <TableRow>
      <TableCell className={styles.cell}>
        <Text weight="semibold">{c.userId}</Text>
      </TableCell>
      <TableCell className={styles.cell}>
        <div>
          <Text weight="semibold">{c.riskId}</Text>{' '}
          <Badge appearance="tint" color={c.riskLevel === 'Critical' || c.riskLevel === 'High' ? 'danger' : 'warning'}>
            {c.riskLevel}
          </Badge>
          <Caption1 as="p" className={styles.muted}>
            {c.riskDescription}
          </Caption1>
        </div>
      </TableCell>
      <TableCell className={styles.cell}>{c.businessProcess}</TableCell>
      <TableCell className={styles.cell}>{c.systems.join(', ')}</TableCell>
      <TableCell>
        {c.exercised ? (
          <Badge appearance="filled" color="danger">
            Exercised
          </Badge>
        ) : (
          <Badge appearance="outline" color="informative">
            Latent
          </Badge>
        )}
      </TableCell>
      <TableCell className={styles.cell}>
        <ul className={styles.paths}>
          {paths.slice(0, SHOWN_PATHS).map((p) => (
            <li key={p}>
              <Caption1>{p}</Caption1>
            </li>
          ))}
          {paths.length > SHOWN_PATHS ? (
            <li>
              <Caption1 className={styles.muted}>{`and ${paths.length - SHOWN_PATHS} more`}</Caption1>
            </li>
          ) : null}
        </ul>
      </TableCell>
    </TableRow>
  );
}
