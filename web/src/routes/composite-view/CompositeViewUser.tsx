import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { graphql, useRefetchableFragment } from 'react-relay';
import type { CompositeViewUser_user$key } from '../../__generated__/CompositeViewUser_user.graphql';
import type { CompositeViewUserRefetchQuery } from '../../__generated__/CompositeViewUserRefetchQuery.graphql';
import { CompositeViewGroups } from './CompositeViewGroups';
import { CompositeViewCount, CompositeViewItem } from './CompositeViewItem';
import { CompositeViewAnalysis } from './CompositeViewAnalysis';

const useStyles = makeStyles({
  noGroup: { color: tokens.colorNeutralForeground4, fontStyle: 'italic' },
});

/** One user of the composite view: totals and status; expanded, the risk groups (loaded the first time it is opened). */
export function CompositeViewUser({ user, open }: { user: CompositeViewUser_user$key; open: boolean }) {
  const styles = useStyles();
  const [u, refetch] = useRefetchableFragment<CompositeViewUserRefetchQuery, CompositeViewUser_user$key>(
    graphql`
      fragment CompositeViewUser_user on CompositeUser
      @refetchable(queryName: "CompositeViewUserRefetchQuery")
      @argumentDefinitions(expanded: { type: "Boolean", defaultValue: false }) {
        id
        userId
        userName
        userGroup
        totalRisks
        highRisks
        decidedRisks
        allDecided
        latestAnalysis {
          userStatus
          redCount
          totalRisks
        }
        ...CompositeViewGroups_user @include(if: $expanded) @alias(as: "groups")
      }
    `,
    user,
  );

  const name = u.userName || u.userId;
  return (
    <CompositeViewItem
      value={u.id}
      label={`${name} (${u.userId}): ${u.totalRisks} risks, ${u.highRisks} high, ${u.decidedRisks} of ${u.totalRisks} decided`}
      decided={u.allDecided}
      title={name}
      subtitle={
        <>
          {u.userId} · {u.userGroup ? u.userGroup : <span className={styles.noGroup}>No Group</span>}
        </>
      }
      counts={
        <>
          <Badge appearance="outline" color="informative" shape="rounded">
            {u.totalRisks} {u.totalRisks === 1 ? 'risk' : 'risks'}
          </Badge>
          {u.highRisks > 0 ? (
            <Badge appearance="tint" color="danger" shape="rounded">
              {u.highRisks} high
            </Badge>
          ) : null}
          <CompositeViewCount>
            {u.decidedRisks}/{u.totalRisks} decided
          </CompositeViewCount>
        </>
      }
      actions={<CompositeViewAnalysis userId={u.userId} name={name} latest={u.latestAnalysis} />}
      open={open}
      content={u.groups != null ? <CompositeViewGroups user={u.groups} /> : null}
      refetch={refetch}
      loadingLabel="Loading risk groups..."
    />
  );
}
