import { makeStyles, tokens } from '@fluentui/react-components';
import { graphql, usePaginationFragment } from 'react-relay';
import type { DetailedReviewRoles_group$key } from '../../__generated__/DetailedReviewRoles_group.graphql';
import type { DetailedReviewRolesPaginationQuery } from '../../__generated__/DetailedReviewRolesPaginationQuery.graphql';
import { DetailedReviewRole } from './DetailedReviewRole';
import { LoadMoreButton } from '../../components/ListTable';

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
export function DetailedReviewRoles({ group }: { group: DetailedReviewRoles_group$key }) {
  const styles = useStyles();
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<DetailedReviewRolesPaginationQuery, DetailedReviewRoles_group$key>(
    graphql`
      fragment DetailedReviewRoles_group on CompositeRiskGroup
      @argumentDefinitions(count: { type: "Int", defaultValue: 20 }, cursor: { type: "String" })
      @refetchable(queryName: "DetailedReviewRolesPaginationQuery") {
        roles(first: $count, after: $cursor) @connection(key: "DetailedReviewRoles_roles") {
          edges {
            node {
              id
              ...DetailedReviewRole_role
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
        <DetailedReviewRole key={e.node.id} role={e.node} />
      ))}
      {hasNext ? (
        <div className={styles.more}>
          <LoadMoreButton size="small" hasNext isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ROLES_PAGE)} label="Load more roles" />
        </div>
      ) : null}
    </div>
  );
}
