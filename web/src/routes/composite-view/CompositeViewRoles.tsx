import { makeStyles, tokens } from '@fluentui/react-components';
import { graphql, usePaginationFragment } from 'react-relay';
import type { CompositeViewRoles_group$key } from '../../__generated__/CompositeViewRoles_group.graphql';
import type { CompositeViewRolesPaginationQuery } from '../../__generated__/CompositeViewRolesPaginationQuery.graphql';
import { CompositeViewRole } from './CompositeViewRole';
import { LoadMoreButton } from '../../components/lists/ListTable';

const ROLES_PAGE = 20;

const useStyles = makeStyles({
  list: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalXL,
    paddingRight: tokens.spacingHorizontalM,
    '@media (max-width: 640px)': { paddingLeft: tokens.spacingHorizontalS, paddingRight: tokens.spacingHorizontalS },
  },
  more: { display: 'flex', justifyContent: 'center' },
});

/** The composite roles under one risk group of a user, a page at a time. */
export function CompositeViewRoles({ group }: { group: CompositeViewRoles_group$key }) {
  const styles = useStyles();
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<CompositeViewRolesPaginationQuery, CompositeViewRoles_group$key>(
    graphql`
      fragment CompositeViewRoles_group on CompositeRiskGroup
      @argumentDefinitions(count: { type: "Int", defaultValue: 20 }, cursor: { type: "String" })
      @refetchable(queryName: "CompositeViewRolesPaginationQuery") {
        roles(first: $count, after: $cursor) @connection(key: "CompositeViewRoles_roles") {
          edges {
            node {
              id
              ...CompositeViewRole_role
            }
          }
        }
      }
    `,
    group,
  );
  return (
    <div className={styles.list}>
      {data.roles.edges.map((e) => (
        <CompositeViewRole key={e.node.id} role={e.node} />
      ))}
      {hasNext ? (
        <div className={styles.more}>
          <LoadMoreButton size="small" hasNext isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ROLES_PAGE)} label="Load more roles" />
        </div>
      ) : null}
    </div>
  );
}
