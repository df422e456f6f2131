import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Suspense, useEffect } from 'react';
import { graphql, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import type { UnassignedConflictsDialogQuery } from '../../__generated__/UnassignedConflictsDialogQuery.graphql';

const listQuery = graphql`
  query UnassignedConflictsDialogQuery {
    unassignedConflicts(limit: 200) {
      total
      nobody
      rows {
        riskRowId
        userId
        userName
        accessRiskId
        system
        roleProfile
        reason
        route
      }
    }
  }
`;

const useStyles = makeStyles({
  scroll: { overflowX: 'auto', maxHeight: '60vh' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The rows no assignment gives to a reviewer who may review them (administrators): why, and whether the fallback reviewers have them. */
export function UnassignedConflictsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [queryRef, load] = useQueryLoader<UnassignedConflictsDialogQuery>(listQuery);
  useEffect(() => {
    if (open) load({}, { fetchPolicy: 'network-only' });
  }, [open, load]);
  const loading = <Spinner size="small" label="Loading conflicts..." />;
  return (
    <Dialog open={open} onOpenChange={(_, d) => onOpenChange(d.open)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Unassigned Conflicts</DialogTitle>
          <DialogContent>
            {queryRef ? (
              <Suspense fallback={loading}>
                <UnassignedRows queryRef={queryRef} />
              </Suspense>
            ) : (
              loading
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => onOpenChange(false)}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function UnassignedRows({ queryRef }: { queryRef: PreloadedQuery<UnassignedConflictsDialogQuery> }) {
  const styles = useStyles();
  const { unassignedConflicts: u } = usePreloadedQuery<UnassignedConflictsDialogQuery>(listQuery, queryRef);
  if (u.total === 0) return <Body1>Every conflict is assigned to a reviewer.</Body1>;
  return (
    <>
      <Caption1 className={styles.muted}>
        {u.total.toLocaleString('en-US')} rows have no assigned reviewer; {u.nobody.toLocaleString('en-US')} of them nobody can review.
        {u.total > u.rows.length ? ` The first ${u.rows.length} are listed.` : ''}
      </Caption1>
      <div className={styles.scroll}>
        <Table size="small" aria-label="Unassigned conflicts">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>User ID</TableHeaderCell>
              <TableHeaderCell>User Name</TableHeaderCell>
              <TableHeaderCell>Access Risk ID</TableHeaderCell>
              <TableHeaderCell>System</TableHeaderCell>
              <TableHeaderCell>Role/Profile</TableHeaderCell>
              <TableHeaderCell>Why</TableHeaderCell>
              <TableHeaderCell>Reviewed By</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {u.rows.map((r) => (
              <TableRow key={r.riskRowId}>
                <TableCell>{r.userId}</TableCell>
                <TableCell>{r.userName}</TableCell>
                <TableCell>{r.accessRiskId}</TableCell>
                <TableCell>{r.system}</TableCell>
                <TableCell>{r.roleProfile}</TableCell>
                <TableCell>{r.reason === 'self-review' ? 'routed: self-review' : 'no assignment'}</TableCell>
                <TableCell>{r.route === 'fallback' ? 'Fallback reviewer' : 'Nobody'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}
