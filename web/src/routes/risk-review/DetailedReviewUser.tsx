import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { graphql, useRefetchableFragment } from 'react-relay';
import type { DetailedReviewUser_user$key } from '../../__generated__/DetailedReviewUser_user.graphql';
import type { DetailedReviewUserRefetchQuery } from '../../__generated__/DetailedReviewUserRefetchQuery.graphql';
import { DetailedReviewGroups } from './DetailedReviewGroups';
import { DetailedReviewCount, DetailedReviewItem } from './DetailedReviewItem';

const useStyles = makeStyles({
  noGroup: { color: tokens.colorNeutralForeground4, fontStyle: 'italic' },
});

/** One user of the composite view: totals and status; expanded, the risk groups (loaded the first time it is opened). */
export function DetailedReviewUser({ user, open }: { user: DetailedReviewUser_user$key; open: boolean }) {
  const styles = useStyles();
  const [u, refetch] = useRefetchableFragment<DetailedReviewUserRefetchQuery, DetailedReviewUser_user$key>(
    graphql`
      fragment DetailedReviewUser_user on CompositeUser
      @refetchable(queryName: "DetailedReviewUserRefetchQuery")
      @argumentDefinitions(expanded: { type: "Boolean", defaultValue: false }) {
        id
        userId
        userName
        userGroup
        totalRisks
        highRisks
        decidedRisks
        allDecided
        ...DetailedReviewGroups_user @include(if: $expanded) @alias(as: "groups")
      }
    `,
    user,
  );

  const name = u.userName || u.userId;
  return (
    <DetailedReviewItem
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
          <DetailedReviewCount>
            {u.decidedRisks}/{u.totalRisks} decided
          </DetailedReviewCount>
        </>
      }
      open={open}
      content={u.groups != null ? <DetailedReviewGroups user={u.groups} /> : null}
      refetch={refetch}
      loadingLabel="Loading risk groups..."
    />
  );
}
