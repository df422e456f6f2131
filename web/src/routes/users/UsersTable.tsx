import {
  Body1,
  Button,
  makeStyles,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { PeopleSearch24Regular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { UsersTable_query$key } from '../../__generated__/UsersTable_query.graphql';
import type { UsersTablePaginationQuery } from '../../__generated__/UsersTablePaginationQuery.graphql';
import { fullName } from '../../components/Sidebar';
import { EditUserDialog } from './EditUserDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { UserRow } from './UserRow';

export type UserFilters = {
  search: string;
  role: 'all' | 'admin' | 'reviewer';
  status: 'all' | 'active' | 'inactive';
};

const COLUMNS = ['User', 'Role', 'Status', 'Assigned Risks', 'Last Login', 'Created', 'Actions'] as const;
const PAGE = 100;

const useStyles = makeStyles({
  scroller: {
    overflowX: 'auto',
  },
  table: {
    minWidth: '960px',
  },
  userColumn: {
    width: '30%',
  },
  actionsColumn: {
    width: '140px',
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
    color: tokens.colorNeutralForeground3,
  },
  footer: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    flexWrap: 'wrap',
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalM,
    paddingRight: tokens.spacingHorizontalM,
    color: tokens.colorNeutralForeground3,
  },
});

type Dialog = { kind: 'edit' | 'reset'; id: string } | null;

export function UsersTable({ query, filters, viewerId }: { query: UsersTable_query$key; filters: UserFilters; viewerId: string }) {
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<UsersTablePaginationQuery, UsersTable_query$key>(
    graphql`
      fragment UsersTable_query on Query
      @argumentDefinitions(count: { type: "Int", defaultValue: 200 }, cursor: { type: "String" })
      @refetchable(queryName: "UsersTablePaginationQuery") {
        users(first: $count, after: $cursor) @connection(key: "UsersTable_users") {
          edges {
            node {
              id
              firstName
              lastName
              email
              role
              isActive
              ...UserRow_user
              ...EditUserDialog_user
              ...ResetPasswordDialog_user
            }
          }
        }
      }
    `,
    query,
  );
  const styles = useStyles();
  const [dialog, setDialog] = useState<Dialog>(null);

  const all = data.users.edges.map((e) => e.node);
  const rows = useMemo(() => {
    const q = filters.search.trim().toLowerCase();
    return all.filter((u) => {
      if (filters.role !== 'all' && u.role !== filters.role) return false;
      if (filters.status === 'active' && !u.isActive) return false;
      if (filters.status === 'inactive' && u.isActive) return false;
      if (!q) return true;
      return fullName(u.firstName, u.lastName).toLowerCase().includes(q) || u.email.toLowerCase().includes(q);
    });
  }, [all, filters]);
  const open = dialog ? all.find((u) => u.id === dialog.id) : undefined;

  return (
    <>
      <div className={styles.scroller}>
        <Table className={styles.table} aria-label="Users">
          <TableHeader>
            <TableRow>
              {COLUMNS.map((c) => (
                <TableHeaderCell
                  key={c}
                  className={c === 'User' ? styles.userColumn : c === 'Actions' ? styles.actionsColumn : undefined}
                >
                  {c}
                </TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={COLUMNS.length}>
                  <div className={styles.empty}>
                    <PeopleSearch24Regular aria-hidden />
                    <Body1>No users found</Body1>
                  </div>
                </TableCell>
              </TableRow>
            ) : (
              rows.map((u) => (
                <UserRow
                  key={u.id}
                  user={u}
                  isSelf={u.id === viewerId}
                  onEdit={() => setDialog({ kind: 'edit', id: u.id })}
                  onResetPassword={() => setDialog({ kind: 'reset', id: u.id })}
                />
              ))
            )}
          </TableBody>
        </Table>
      </div>
      <div className={styles.footer}>
        <Body1>
          Showing {rows.length} of {all.length} {all.length === 1 ? 'user' : 'users'}
        </Body1>
        {hasNext ? (
          <Button onClick={() => loadNext(PAGE)} disabled={isLoadingNext} icon={isLoadingNext ? <Spinner size="tiny" /> : undefined}>
            Load more users
          </Button>
        ) : null}
      </div>
      {open && dialog?.kind === 'edit' ? (
        <EditUserDialog key={open.id} user={open} isSelf={open.id === viewerId} onClose={() => setDialog(null)} />
      ) : null}
      {open && dialog?.kind === 'reset' ? <ResetPasswordDialog key={open.id} user={open} onClose={() => setDialog(null)} /> : null}
    </>
  );
}
