import { Badge, Button, Caption1, makeStyles, TableCell, TableCellLayout, TableRow, Text, tokens } from '@fluentui/react-components';
import { ArrowUndo16Regular, Checkmark16Regular, ErrorCircle16Regular } from '@fluentui/react-icons';
import { graphql, useFragment, useMutation } from 'react-relay';
import { ConnectionHandler } from 'relay-runtime';
import type { RemediationRow_item$key } from '../../__generated__/RemediationRow_item.graphql';
import type { RemediationRowSetStatusMutation } from '../../__generated__/RemediationRowSetStatusMutation.graphql';
import { relativeTime } from '../../components/format/relativeTime';
import { fullDateTime, shortDate } from '../../components/format/dates';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { RiskLevelIndicator, TechName } from '../../domain/risks/riskDisplay';

const useStyles = makeStyles({
  name: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  stack: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalXXS, minWidth: '0' },
  actions: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalXS, rowGap: tokens.spacingVerticalXS },
});

export const STATUS_LABEL: Record<string, string> = { OPEN: 'Open', DONE: 'Done', FAILED: 'Failed', VERIFIED: 'Verified' };
const STATUS_COLOR = { OPEN: 'warning', DONE: 'brand', FAILED: 'danger', VERIFIED: 'success' } as const;

const setStatusMutation = graphql`
  mutation RemediationRowSetStatusMutation($id: ID!, $status: SettableRemediationStatus!) {
    setRemediationStatus(id: $id, status: $status) {
      __typename
      ... on MutationSetRemediationStatusSuccess {
        data {
          id
          status
          ...RemediationRow_item
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** What a person may do from each status (verified comes from an upload; it may still be reopened). */
const ACTIONS: Record<string, { status: 'OPEN' | 'DONE' | 'FAILED'; label: string }[]> = {
  OPEN: [
    { status: 'DONE', label: 'Mark done' },
    { status: 'FAILED', label: 'Mark failed' },
  ],
  DONE: [
    { status: 'OPEN', label: 'Reopen' },
    { status: 'FAILED', label: 'Mark failed' },
  ],
  FAILED: [
    { status: 'DONE', label: 'Mark done' },
    { status: 'OPEN', label: 'Reopen' },
  ],
  VERIFIED: [{ status: 'OPEN', label: 'Reopen' }],
};
const ICON = { DONE: <Checkmark16Regular />, FAILED: <ErrorCircle16Regular />, OPEN: <ArrowUndo16Regular /> } as const;

export type RemediationRowProps = {
  item: RemediationRow_item$key;
  /** The list's connection, and the status it is filtered by: an item that leaves the filter leaves the list. */
  connectionId: string;
  statusFilter: string;
};

/** One access to revoke, its status with who set it, and the status buttons. */
export function RemediationRow({ item, connectionId, statusFilter }: RemediationRowProps) {
  const i = useFragment(
    graphql`
      fragment RemediationRow_item on RemediationItem {
        id
        userId
        userName
        system
        roleProfile
        compositeRole
        riskIds
        riskLevel
        decidedBy
        approvedBy
        approvedAt
        status
        statusNote
        statusSetBy
        statusSetAt
        reopenedCount
        period {
          name
        }
      }
    `,
    item,
  );
  const styles = useStyles();
  const notify = useNotify();
  const [commit, inFlight] = useMutation<RemediationRowSetStatusMutation>(setStatusMutation);
  const who = `${i.userName || i.userId} / ${i.roleProfile || '(no role)'}`;

  const setStatus = (status: 'OPEN' | 'DONE' | 'FAILED') => {
    const fail = (message?: string) => notify({ title: 'Update Failed', description: message || 'Failed to update the remediation item', intent: 'error' });
    commit({
      variables: { id: i.id, status },
      updater: (store, data) => {
        if (data?.setRemediationStatus.__typename !== 'MutationSetRemediationStatusSuccess' || !statusFilter || statusFilter === status) return;
        const connection = store.get(connectionId);
        if (!connection) return;
        ConnectionHandler.deleteNode(connection, i.id);
        const total = connection.getValue('totalCount');
        if (typeof total === 'number') connection.setValue(Math.max(0, total - 1), 'totalCount');
      },
      onCompleted: ({ setRemediationStatus: result }) => {
        if (result.__typename === 'MutationSetRemediationStatusSuccess') {
          notify({ title: 'Status Updated', description: `${who}: ${STATUS_LABEL[status]}`, intent: 'success' });
        } else fail(errorMessage(result));
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  return (
    <TableRow data-status={i.status}>
      <TableCell>
        <TableCellLayout description={<Caption1 className={styles.muted}>{i.userId}</Caption1>}>
          <Text className={styles.name}>{i.userName || i.userId}</Text>
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <span className={styles.stack}>
          <TechName value={i.roleProfile} />
          {i.compositeRole ? <Caption1 className={styles.muted}>under {i.compositeRole}</Caption1> : null}
        </span>
      </TableCell>
      <TableCell>{i.system}</TableCell>
      <TableCell>
        <span className={styles.stack}>
          <RiskLevelIndicator level={i.riskLevel} />
          <Caption1 className={styles.muted}>{i.riskIds}</Caption1>
        </span>
      </TableCell>
      <TableCell>
        <Text size={200}>{i.decidedBy}</Text>
      </TableCell>
      <TableCell>
        <span className={styles.stack}>
          <Text size={200}>{i.approvedBy}</Text>
          {i.approvedAt ? (
            <Caption1 className={styles.muted}>
              <time dateTime={i.approvedAt} title={fullDateTime(i.approvedAt)}>
                {shortDate(i.approvedAt)}
              </time>{' '}
              · {i.period.name}
            </Caption1>
          ) : null}
        </span>
      </TableCell>
      <TableCell>
        <span className={styles.stack}>
          <Badge appearance="tint" color={STATUS_COLOR[i.status as keyof typeof STATUS_COLOR] ?? 'informative'}>
            {STATUS_LABEL[i.status] ?? i.status}
          </Badge>
          {i.statusSetBy ? (
            <Caption1 className={styles.muted}>
              by {i.statusSetBy}
              {i.statusSetAt ? (
                <>
                  {', '}
                  <time dateTime={i.statusSetAt} title={fullDateTime(i.statusSetAt)}>
                    {relativeTime(i.statusSetAt)}
                  </time>
                </>
              ) : null}
            </Caption1>
          ) : null}
          {i.statusNote ? <Caption1>{i.statusNote}</Caption1> : null}
          {i.reopenedCount > 0 ? <Caption1 className={styles.muted}>Reopened {i.reopenedCount}× by an upload</Caption1> : null}
        </span>
      </TableCell>
      <TableCell>
        <span className={styles.actions}>
          {(ACTIONS[i.status] ?? []).map((a) => (
            <Button
              key={a.status}
              size="small"
              icon={ICON[a.status]}
              disabled={inFlight}
              onClick={() => setStatus(a.status)}
              aria-label={`${a.label}: ${who} in ${i.system}`}
            >
              {a.label}
            </Button>
          ))}
        </span>
      </TableCell>
    </TableRow>
  );
}
