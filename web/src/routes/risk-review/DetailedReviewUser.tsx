import {
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Caption1,
  makeStyles,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useTransition } from 'react';
import { graphql, useRefetchableFragment } from 'react-relay';
import type { DetailedReviewUser_user$key } from '../../__generated__/DetailedReviewUser_user.graphql';
import type { DetailedReviewUserRefetchQuery } from '../../__generated__/DetailedReviewUserRefetchQuery.graphql';
import { DetailedReviewGroups } from './DetailedReviewGroups';
import { DetailedReviewStatusDot } from './DetailedReviewStatusDot';

const useStyles = makeStyles({
  item: { borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    width: '100%',
  },
  who: { display: 'flex', flexDirection: 'column', minWidth: '180px', flexGrow: 1 },
  name: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  noGroup: { color: tokens.colorNeutralForeground4, fontStyle: 'italic' },
  counts: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS, paddingRight: tokens.spacingHorizontalS },
  panel: { paddingBottom: tokens.spacingVerticalM },
  loading: { padding: tokens.spacingVerticalL },
});

/** One user of the composite view: totals and status; expanded, the risk groups (loaded then). */
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
  const [loading, startTransition] = useTransition();
  const groups = u.groups;

  // The risk groups are fetched the first time the user is opened.
  useEffect(() => {
    if (open && groups == null && !loading) {
      startTransition(() => {
        refetch({ expanded: true }, { fetchPolicy: 'store-or-network' });
      });
    }
  }, [open, groups, loading, refetch]);

  const name = u.userName || u.userId;
  return (
    <AccordionItem value={u.id} className={styles.item}>
      <AccordionHeader
        size="large"
        button={{
          'aria-label': `${name} (${u.userId}): ${u.totalRisks} risks, ${u.highRisks} high, ${u.decidedRisks} of ${u.totalRisks} decided`,
        }}
      >
        <span className={styles.header}>
          <span className={styles.who}>
            <Text className={styles.name}>{name}</Text>
            <Caption1 className={styles.muted}>
              {u.userId} · {u.userGroup ? u.userGroup : <span className={styles.noGroup}>No Group</span>}
            </Caption1>
          </span>
          <span className={styles.counts}>
            <Badge appearance="outline" color="informative" shape="rounded">
              {u.totalRisks} {u.totalRisks === 1 ? 'risk' : 'risks'}
            </Badge>
            {u.highRisks > 0 ? (
              <Badge appearance="tint" color="danger" shape="rounded">
                {u.highRisks} high
              </Badge>
            ) : null}
            <Caption1 className={styles.muted}>
              {u.decidedRisks}/{u.totalRisks} decided
            </Caption1>
            <DetailedReviewStatusDot decided={u.allDecided} />
          </span>
        </span>
      </AccordionHeader>
      <AccordionPanel className={styles.panel}>
        {!open ? null : groups != null ? (
          <DetailedReviewGroups user={groups} />
        ) : (
          <Spinner className={styles.loading} size="small" label="Loading risk groups..." />
        )}
      </AccordionPanel>
    </AccordionItem>
  );
}
