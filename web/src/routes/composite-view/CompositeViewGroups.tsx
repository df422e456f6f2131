import { Accordion, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import type { CompositeViewGroups_user$key } from '../../__generated__/CompositeViewGroups_user.graphql';
import type { CompositeViewGroupsPaginationQuery } from '../../__generated__/CompositeViewGroupsPaginationQuery.graphql';
import { CompositeViewGroup } from './CompositeViewGroup';
import { LoadMoreButton } from '../../components/lists/ListTable';

const GROUPS_PAGE = 50;

const useStyles = makeStyles({
  list: {
    marginLeft: tokens.spacingHorizontalXL,
    marginRight: tokens.spacingHorizontalL,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    '@media (max-width: 640px)': { marginLeft: tokens.spacingHorizontalS, marginRight: tokens.spacingHorizontalS },
  },
  more: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalS },
});

/** A user's risk groups (one per access risk), a page at a time. */
export function CompositeViewGroups({ user }: { user: CompositeViewGroups_user$key }) {
  const styles = useStyles();
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<CompositeViewGroupsPaginationQuery, CompositeViewGroups_user$key>(
    graphql`
      fragment CompositeViewGroups_user on CompositeUser
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" })
      @refetchable(queryName: "CompositeViewGroupsPaginationQuery") {
        riskGroups(first: $count, after: $cursor) @connection(key: "CompositeViewGroups_riskGroups") {
          edges {
            node {
              id
              ...CompositeViewGroup_group
            }
          }
        }
      }
    `,
    user,
  );
  const [open, setOpen] = useState<string[]>([]);
  const groups = data.riskGroups.edges.map((e) => e.node);

  return (
    <div className={styles.list}>
      <Accordion multiple collapsible openItems={open} onToggle={(_, d) => setOpen(d.openItems.map(String))}>
        {groups.map((g) => (
          <CompositeViewGroup key={g.id} group={g} open={open.includes(g.id)} />
        ))}
      </Accordion>
      {hasNext ? (
        <div className={styles.more}>
          <LoadMoreButton size="small" hasNext isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(GROUPS_PAGE)} label="Load more risk groups" />
        </div>
      ) : null}
    </div>
  );
}
