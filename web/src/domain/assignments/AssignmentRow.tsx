import {
  Badge,
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Spinner,
  TableCell,
  TableCellLayout,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { Delete20Regular, PersonSwap20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { AssignmentRowDeleteMutation } from '../../__generated__/AssignmentRowDeleteMutation.graphql';
import type { AssignmentRow_assignment$key } from '../../__generated__/AssignmentRow_assignment.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { criteriaTypeLabel, formatDate } from '../risks/riskDisplay';
import { shownName } from '../users/userNames';
import { useNotify } from '../../components/forms/toast';
import { ReassignDialog } from './ReassignDialog';
import { formatCount } from '../../components/layout/StatTile';
import { dangerButton } from '../../components/layout/pageStyles';

const useStyles = makeStyles({
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  wrap: { overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  value: { overflowWrap: 'anywhere' },
  danger: { color: tokens.colorPaletteRedForeground1 },
  dangerButton,
});

const deleteMutation = graphql`
  mutation AssignmentRowDeleteMutation($id: ID!, $connections: [ID!]!) {
    deleteAssignment(id: $id) {
      __typename
      ... on MutationDeleteAssignmentSuccess {
        data @deleteEdge(connections: $connections)
      }
      ... on Error {
        message
      }
    }
  }
`;

export const DELETE_ASSIGNMENT_CONFIRMATION = 'Are you sure you want to delete this assignment? This action cannot be undone.';

export function AssignmentRow({
  assignment,
  connectionId,
  onReassigned,
}: {
  assignment: AssignmentRow_assignment$key;
  connectionId: string;
  /** The criterion moved to another reviewer (the reassignment list follows). */
  onReassigned?: () => void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const a = useFragment(
    graphql`
      fragment AssignmentRow_assignment on AssignmentCriteria {
        id
        name
        criteriaType
        criteriaValue
        matchingRows
        assignedAt
        reviewer {
          id
          firstName
          lastName
          displayName
          email
        }
      }
    `,
    assignment,
  );
  const [confirming, setConfirming] = useState(false);
  const [reassigning, setReassigning] = useState(false);
  const [commit, inFlight] = useMutation<AssignmentRowDeleteMutation>(deleteMutation);

  const remove = () => {
    const fail = (message?: string) => notify({ title: 'Deletion Failed', description: message || 'Failed to delete assignment', intent: 'error' });
    commit({
      variables: { id: a.id, connections: [connectionId] },
      onCompleted: ({ deleteAssignment: r }) => {
        if (r.__typename !== 'MutationDeleteAssignmentSuccess') return fail(errorMessage(r));
        setConfirming(false);
        notify({ title: 'Assignment Deleted', description: `'${a.name}' has been removed.`, intent: 'success' });
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  return (
    <TableRow>
      <TableCell>
        <TableCellLayout className={styles.name}>{a.name}</TableCellLayout>
      </TableCell>
      <TableCell>
        <TableCellLayout className={styles.wrap} description={<Caption1 className={styles.muted}>{a.reviewer.email}</Caption1>}>
          {shownName(a.reviewer.displayName)}
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <Badge appearance="tint" color="brand" shape="rounded">
          {criteriaTypeLabel(a.criteriaType)}
        </Badge>
      </TableCell>
      <TableCell>
        <span className={styles.value}>{a.criteriaValue}</span>
      </TableCell>
      <TableCell>{formatCount(a.matchingRows)}</TableCell>
      <TableCell>{formatDate(a.assignedAt)}</TableCell>
      <TableCell>
        <Button appearance="subtle" icon={<PersonSwap20Regular />} aria-label={`Reassign assignment ${a.name}`} onClick={() => setReassigning(true)} />
        {reassigning ? (
          <ReassignDialog
            target={{ criteriaId: a.id }}
            what={`'${a.name}'`}
            excludeReviewerId={a.reviewer.id}
            onClose={() => setReassigning(false)}
            onDone={onReassigned}
          />
        ) : null}
        <Button
          appearance="subtle"
          icon={<Delete20Regular className={styles.danger} />}
          aria-label={`Delete assignment ${a.name}`}
          onClick={() => setConfirming(true)}
        />
        <Dialog open={confirming} onOpenChange={(_, d) => !inFlight && setConfirming(d.open)}>
          <DialogSurface>
            <DialogBody>
              <DialogTitle>Delete Assignment</DialogTitle>
              <DialogContent>
                <Body1>{DELETE_ASSIGNMENT_CONFIRMATION}</Body1>
              </DialogContent>
              <DialogActions>
                <Button appearance="secondary" disabled={inFlight} onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
                <Button
                  appearance="primary"
                  className={inFlight ? undefined : styles.dangerButton}
                  disabled={inFlight}
                  icon={inFlight ? <Spinner size="tiny" /> : undefined}
                  onClick={remove}
                >
                  Delete
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      </TableCell>
    </TableRow>
  );
}
