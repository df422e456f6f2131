import { Body1, Button, Caption1, Card, makeStyles, Subtitle2, TableCell, TableCellLayout, TableRow, tokens } from '@fluentui/react-components';
import { History24Regular, PersonSwap20Regular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';
import { graphql, useRefetchableFragment } from 'react-relay';
import type { ReassignmentPanelRefetchQuery } from '../../__generated__/ReassignmentPanelRefetchQuery.graphql';
import type { ReassignmentPanel_query$key } from '../../__generated__/ReassignmentPanel_query.graphql';
import { ListEmpty, ListTable } from '../../components/lists/ListTable';
import { formatDate } from '../risks/riskDisplay';
import { shownName } from '../users/userNames';
import { ReassignDialog, type ReassignTarget } from './ReassignDialog';
import { formatCount } from '../../components/layout/StatTile';

const useStyles = makeStyles({
  card: { padding: 0, rowGap: 0, marginTop: tokens.spacingVerticalL },
  heading: { margin: 0, padding: tokens.spacingHorizontalM },
  open: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalM, paddingTop: 0 },
  work: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
  table: { minWidth: '720px' },
  wrap: { overflowWrap: 'anywhere' },
});

/**
 * For administrators on the Assignments screen: the open
 * work of deactivated reviewers, each piece with a 'Reassign' action, and
 * every reassignment made (who held what when, by whom, with the note).
 */
export function ReassignmentPanel({ query, version }: { query: ReassignmentPanel_query$key; version: number }) {
  const styles = useStyles();
  const [data, refetch] = useRefetchableFragment<ReassignmentPanelRefetchQuery, ReassignmentPanel_query$key>(
    graphql`
      fragment ReassignmentPanel_query on Query @refetchable(queryName: "ReassignmentPanelRefetchQuery") {
        reassignmentOpenWork(first: 500) {
          edges {
            node {
              reviewer {
                id
                firstName
                lastName
                displayName
                email
              }
              pending
              criteria {
                id
                name
              }
              itemIds
            }
          }
        }
        reassignments(first: 200) {
          edges {
            node {
              id
              criteriaName
              riskRowIds
              fromReviewer
              toReviewer
              reassignedBy
              note
              createdAt
            }
          }
        }
      }
    `,
    query,
  );
  const [moving, setMoving] = useState<{ target: ReassignTarget; what: string; from: string } | null>(null);
  const reload = () => refetch({}, { fetchPolicy: 'network-only' });
  // A criterion moved from the table above: the list follows.
  useEffect(() => {
    if (version > 0) refetch({}, { fetchPolicy: 'network-only' });
  }, [version, refetch]);
  const itemsWord = (n: number) => (n === 1 ? '1 single item' : `${n} single items`);

  return (
    <>
      <Card className={styles.card}>
        <Subtitle2 as="h2" className={styles.heading}>
          Open Work of Deactivated Reviewers
        </Subtitle2>
        <div className={styles.open}>
          {data.reassignmentOpenWork.edges.length === 0 ? (
            <Caption1 className={styles.muted}>No deactivated reviewer holds open work.</Caption1>
          ) : (
            data.reassignmentOpenWork.edges.map(({ node: w }) => {
              const who = shownName(w.reviewer.displayName);
              return (
                <section key={w.reviewer.id} aria-label={`Open work of ${who}`}>
                  <Body1>
                    <strong>{who}</strong> ({w.reviewer.email}) · {formatCount(w.pending)} pending
                  </Body1>
                  <div className={styles.work}>
                    {w.criteria.map((c) => (
                      <Button
                        key={c.id}
                        size="small"
                        icon={<PersonSwap20Regular />}
                        onClick={() => setMoving({ target: { criteriaId: c.id }, what: `'${c.name}'`, from: w.reviewer.id })}
                      >
                        Reassign {c.name}
                      </Button>
                    ))}
                    {w.itemIds.length ? (
                      <Button
                        size="small"
                        icon={<PersonSwap20Regular />}
                        onClick={() =>
                          setMoving({
                            target: { riskRowIds: w.itemIds, fromReviewerId: w.reviewer.id },
                            what: itemsWord(w.itemIds.length),
                            from: w.reviewer.id,
                          })
                        }
                      >
                        Reassign {itemsWord(w.itemIds.length)}
                      </Button>
                    ) : null}
                  </div>
                </section>
              );
            })
          )}
        </div>
      </Card>
      <Card className={styles.card}>
        <Subtitle2 as="h2" className={styles.heading}>
          Reassignments
        </Subtitle2>
        <ListTable
          label="Reassignments"
          className={styles.table}
          columns={[{ label: 'Date' }, { label: 'Work' }, { label: 'From' }, { label: 'To' }, { label: 'By' }, { label: 'Note' }]}
          empty={<ListEmpty icon={<History24Regular />} title="No work has been reassigned yet" />}
          rows={data.reassignments.edges.map(({ node: r }) => (
            <TableRow key={r.id}>
              <TableCell>{formatDate(r.createdAt)}</TableCell>
              <TableCell>
                <TableCellLayout className={styles.wrap}>{r.criteriaName ?? itemsWord(r.riskRowIds.length)}</TableCellLayout>
              </TableCell>
              <TableCell className={styles.wrap}>{r.fromReviewer}</TableCell>
              <TableCell className={styles.wrap}>{r.toReviewer}</TableCell>
              <TableCell className={styles.wrap}>{r.reassignedBy}</TableCell>
              <TableCell className={styles.wrap}>{r.note ?? '—'}</TableCell>
            </TableRow>
          ))}
        />
      </Card>
      {moving ? (
        <ReassignDialog target={moving.target} what={moving.what} excludeReviewerId={moving.from} onClose={() => setMoving(null)} onDone={reload} />
      ) : null}
    </>
  );
}
