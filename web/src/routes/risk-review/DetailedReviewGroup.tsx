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
import type { DetailedReviewGroup_group$key } from '../../__generated__/DetailedReviewGroup_group.graphql';
import type { DetailedReviewGroupRefetchQuery } from '../../__generated__/DetailedReviewGroupRefetchQuery.graphql';
import { DetailedReviewRoles } from './DetailedReviewRoles';
import { DetailedReviewStatusDot } from './DetailedReviewStatusDot';

const useStyles = makeStyles({
  item: {
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    ':last-child': { borderBottom: 'none' },
  },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    width: '100%',
  },
  risk: { display: 'flex', flexDirection: 'column', minWidth: '180px', flexGrow: 1, flexBasis: '240px' },
  id: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  counts: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS, paddingRight: tokens.spacingHorizontalS },
  panel: { paddingBottom: tokens.spacingVerticalS },
  loading: { padding: tokens.spacingVerticalM },
});

/** One access risk of a user: total, RISK / NO RISK, status; expanded, the composite roles carrying it (loaded then). */
export function DetailedReviewGroup({ group, open }: { group: DetailedReviewGroup_group$key; open: boolean }) {
  const styles = useStyles();
  const [g, refetch] = useRefetchableFragment<DetailedReviewGroupRefetchQuery, DetailedReviewGroup_group$key>(
    graphql`
      fragment DetailedReviewGroup_group on CompositeRiskGroup
      @refetchable(queryName: "DetailedReviewGroupRefetchQuery")
      @argumentDefinitions(expanded: { type: "Boolean", defaultValue: false }) {
        id
        accessRiskId
        riskDescription
        isRisk
        totalRisks
        decidedRisks
        allDecided
        ...DetailedReviewRoles_group @include(if: $expanded) @alias(as: "roles")
      }
    `,
    group,
  );
  const [loading, startTransition] = useTransition();
  const roles = g.roles;

  useEffect(() => {
    if (open && roles == null && !loading) {
      startTransition(() => {
        refetch({ expanded: true }, { fetchPolicy: 'store-or-network' });
      });
    }
  }, [open, roles, loading, refetch]);

  return (
    <AccordionItem value={g.id} className={styles.item}>
      <AccordionHeader
        size="medium"
        button={{
          'aria-label': `Risk ${g.accessRiskId}: ${g.riskDescription}; ${g.isRisk ? 'RISK' : 'NO RISK'}, ${g.totalRisks} total, ${g.allDecided ? 'all decided' : 'decisions pending'}`,
        }}
      >
        <span className={styles.header}>
          <span className={styles.risk}>
            <Text className={styles.id}>{g.accessRiskId}</Text>
            <Caption1 className={styles.muted}>{g.riskDescription || '—'}</Caption1>
          </span>
          <span className={styles.counts}>
            <Caption1 className={styles.muted}>{g.totalRisks} total</Caption1>
            {g.isRisk ? (
              <Badge appearance="filled" color="danger" shape="rounded">
                RISK
              </Badge>
            ) : (
              <Badge appearance="tint" color="success" shape="rounded">
                NO RISK
              </Badge>
            )}
            <DetailedReviewStatusDot decided={g.allDecided} />
          </span>
        </span>
      </AccordionHeader>
      <AccordionPanel className={styles.panel}>
        {!open ? null : roles != null ? (
          <DetailedReviewRoles group={roles} />
        ) : (
          <Spinner className={styles.loading} size="small" label="Loading composite roles..." />
        )}
      </AccordionPanel>
    </AccordionItem>
  );
}
