import { Button, Card, makeStyles, Select, Spinner, tokens } from '@fluentui/react-components';
import { PersonAdd20Regular } from '@fluentui/react-icons';
import { Suspense, useState } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import type { UsersRouteQuery } from '../../__generated__/UsersRouteQuery.graphql';
import { useAuth } from '../../auth/SessionProvider';
import { AdminOnly } from '../../shell/AccessGate';
import { PageHeader } from '../../components/layout/PageHeader';
import { SearchToolbar } from '../../components/lists/SearchToolbar';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { CreateUserDialog } from './CreateUserDialog';
import { UsersTable, type UserFilters } from './UsersTable';
import type { UsersPrepared } from './usersLoader';

const query = graphql`
  query UsersRouteQuery($count: Int!) {
    ...UsersTable_query @arguments(count: $count)
  }
`;

const useStyles = makeStyles({
  card: {
    padding: 0,
    rowGap: 0,
  },
  toolbar: {
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  filter: {
    minWidth: '150px',
  },
  tableArea: {
    paddingBottom: tokens.spacingVerticalM,
  },
  loading: {
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
  },
});

/** SPEC §2, 'User Management' (administrators only). */
export default function UsersRoute() {
  return (
    <AdminOnly>
      <UsersScreen />
    </AdminOnly>
  );
}

function UsersScreen() {
  const styles = useStyles();
  const auth = useAuth();
  const viewerId = auth.status === 'signedIn' ? auth.viewer.id : '';
  const prepared = useLoaderData() as UsersPrepared | null;
  const { queryRef } = usePreparedQuery<UsersRouteQuery>(query, prepared?.query);
  const [filters, setFilters] = useState<UserFilters>({ search: '', role: 'all', status: 'all' });
  const [creating, setCreating] = useState(false);

  const loading = <Spinner className={styles.loading} label="Loading users..." />;

  return (
    <>
      <PageHeader
        title="User Management"
        subtitle="Create accounts, assign roles and control who can sign in."
        actions={
          <Button appearance="primary" icon={<PersonAdd20Regular />} onClick={() => setCreating(true)}>
            Add User
          </Button>
        }
      />
      <Card className={styles.card}>
        <SearchToolbar
          className={styles.toolbar}
          value={filters.search}
          onSearch={(search) => setFilters((f) => ({ ...f, search }))}
          placeholder="Search users by name or email..."
          label="Search users"
        >
          <Select
            className={styles.filter}
            aria-label="Filter by role"
            value={filters.role}
            onChange={(_, d) => setFilters((f) => ({ ...f, role: d.value as UserFilters['role'] }))}
          >
            <option value="all">All Roles</option>
            <option value="ADMIN">Administrator</option>
            <option value="REVIEWER">Reviewer</option>
          </Select>
          <Select
            className={styles.filter}
            aria-label="Filter by status"
            value={filters.status}
            onChange={(_, d) => setFilters((f) => ({ ...f, status: d.value as UserFilters['status'] }))}
          >
            <option value="all">All Status</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </Select>
        </SearchToolbar>
        <div className={styles.tableArea}>
          {queryRef == null ? (
            loading
          ) : (
            <Suspense fallback={loading}>
              <LoadedUsers queryRef={queryRef} filters={filters} viewerId={viewerId} />
            </Suspense>
          )}
        </div>
      </Card>
      <CreateUserDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}

function LoadedUsers({ queryRef, filters, viewerId }: { queryRef: PreloadedQuery<UsersRouteQuery>; filters: UserFilters; viewerId: string }) {
  const data = usePreloadedQuery<UsersRouteQuery>(query, queryRef);
  return <UsersTable query={data} filters={filters} viewerId={viewerId} />;
}
