import { Body1, makeStyles } from '@fluentui/react-components';
import { PeopleSearch24Regular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { UsersTable_query$key } from '../../__generated__/UsersTable_query.graphql';
import type { UsersTablePaginationQuery } from '../../__generated__/UsersTablePaginationQuery.graphql';
import { ListEmpty, ListTable, LoadMoreFooter } from '../../components/lists/ListTable';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { shownName } from '../../domain/users/userNames';
import { EditUserDialog } from './EditUserDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { UserRow } from './UserRow';

export type UserFilters = {
  search: string;
  role: 'all' | 'ADMIN' | 'REVIEWER';
  status: 'all' | 'active' | 'inactive';
};

const PAGE = 100;

const useStyles = makeStyles({
  table: {
    minWidth: '960px',
  },
  userColumn: {
    width: '30%',
  },
  actionsColumn: {
    width: '140px',
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
              displayName
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
  const isMobile = useIsMobile();
  const [dialog, setDialog] = useState<Dialog>(null);

  const all = data.users.edges.map((e) => e.node);
  const rows = useMemo(() => {
    const q = filters.search.trim().toLowerCase();
    return all.filter((u) => {
      if (filters.role !== 'all' && u.role !== filters.role) return false;
      if (filters.status === 'active' && !u.isActive) return false;
      if (filters.status === 'inactive' && u.isActive) return false;
      if (!q) return true;
      return shownName(u.displayName).toLowerCase().includes(q) || u.email.toLowerCase().includes(q);
    });
  }, [all, filters]);
  const open = dialog ? all.find((u) => u.id === dialog.id) : undefined;

  const columns = [
    { label: 'User', className: styles.userColumn },
    { label: 'Role' },
    { label: 'Status' },
    { label: 'Assigned Risks' },
    { label: 'Last Login' },
    { label: 'Created' },
    { label: 'Actions', className: styles.actionsColumn },
  ];

  return (
    <>
      <ListTable
        label="Users"
        className={styles.table}
        asCards={isMobile}
        columns={columns}
        empty={<ListEmpty icon={<PeopleSearch24Regular aria-hidden />} title="No users found" />}
        rows={rows.map((u) => (
          <UserRow
            key={u.id}
            user={u}
            isSelf={u.id === viewerId}
            onEdit={() => setDialog({ kind: 'edit', id: u.id })}
            onResetPassword={() => setDialog({ kind: 'reset', id: u.id })}
          />
        ))}
      />
      <LoadMoreFooter
        summary={
          <Body1>
            Showing {rows.length} of {all.length} {all.length === 1 ? 'user' : 'users'}
          </Body1>
        }
        hasNext={hasNext}
        isLoadingNext={isLoadingNext}
        onLoadMore={() => loadNext(PAGE)}
        loadMoreLabel="Load more users"
      />
      {open && dialog?.kind === 'edit' ? <EditUserDialog key={open.id} user={open} isSelf={open.id === viewerId} onClose={() => setDialog(null)} /> : null}
      {open && dialog?.kind === 'reset' ? <ResetPasswordDialog key={open.id} user={open} onClose={() => setDialog(null)} /> : null}
    </>
  );
}
