import { Caption1, Card, CardHeader, makeStyles, Subtitle2, TableCell, TableRow, tokens } from '@fluentui/react-components';
import { ArrowTrending24Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { TestChanges_run$data, TestChanges_run$key } from '../../../__generated__/TestChanges_run.graphql';
import { ListEmpty, ListTable } from '../../../components/lists/ListTable';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  card: { padding: 0, rowGap: 0, minWidth: 0 },
  head: { padding: tokens.spacingHorizontalL, paddingBottom: 0 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  cell: { overflowWrap: 'anywhere' },
});

const COLUMNS = [{ label: 'User' }, { label: 'Risk' }, { label: 'Description' }] as const;

type Change = TestChanges_run$data['wouldAdd'][number];

/** A test run (a rule set version that is not active): the conflicts it would add and remove against the active version's latest run. */
export function TestChanges({ run }: { run: TestChanges_run$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment TestChanges_run on AccessAnalysis {
        test
        status
        compareTo {
          asOf
          ruleSet {
            name
            version
          }
        }
        wouldAdd {
          userId
          riskId
          riskDescription
        }
        wouldRemove {
          userId
          riskId
          riskDescription
        }
      }
    `,
    run,
  );
  if (!r.test || r.status !== 'COMPLETED') return null;
  const against = r.compareTo
    ? `Compared with the latest run of the active version, ${r.compareTo.ruleSet.name} v${r.compareTo.ruleSet.version} as of ${r.compareTo.asOf}.`
    : 'The active version has no completed run yet: every conflict would be added.';
  const side = (title: string, changes: readonly Change[], empty: string) => (
    <Card className={styles.card}>
      <CardHeader
        className={styles.head}
        header={
          <Subtitle2 as="h2" className={styles.title}>
            {title}
          </Subtitle2>
        }
        description={<Caption1 className={styles.muted}>{against}</Caption1>}
      />
      <ListTable
        label={title}
        columns={COLUMNS}
        emptyAlone
        empty={<ListEmpty icon={<ArrowTrending24Regular />} title={empty} />}
        rows={changes.map((c) => (
          <TableRow key={`${c.userId}\u0000${c.riskId}`}>
            <TableCell className={styles.cell}>{c.userId}</TableCell>
            <TableCell className={styles.cell}>{c.riskId}</TableCell>
            <TableCell className={styles.cell}>{c.riskDescription}</TableCell>
          </TableRow>
        ))}
      />
    </Card>
  );
  return (
    <div className={styles.grid}>
      {side('Would Add', r.wouldAdd, 'This version would add no conflict.')}
      {side('Would Remove', r.wouldRemove, 'This version would remove no conflict.')}
    </div>
  );
}
