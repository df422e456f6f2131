import { Badge } from '@fluentui/react-components';
import { graphql, useRefetchableFragment } from 'react-relay';
import type { DetailedReviewGroup_group$key } from '../../__generated__/DetailedReviewGroup_group.graphql';
import type { DetailedReviewGroupRefetchQuery } from '../../__generated__/DetailedReviewGroupRefetchQuery.graphql';
import { DetailedReviewCount, DetailedReviewItem } from './DetailedReviewItem';
import { DetailedReviewRoles } from './DetailedReviewRoles';

/** One access risk of a user: total, RISK / NO RISK, status; expanded, the composite roles carrying it (loaded then). */
export function DetailedReviewGroup({ group, open }: { group: DetailedReviewGroup_group$key; open: boolean }) {
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

  return (
    <DetailedReviewItem
      nested
      value={g.id}
      label={`Risk ${g.accessRiskId}: ${g.riskDescription}; ${g.isRisk ? 'RISK' : 'NO RISK'}, ${g.totalRisks} total, ${g.allDecided ? 'all decided' : 'decisions pending'}`}
      decided={g.allDecided}
      title={g.accessRiskId}
      subtitle={g.riskDescription || '—'}
      counts={
        <>
          <DetailedReviewCount>{g.totalRisks} total</DetailedReviewCount>
          {g.isRisk ? (
            <Badge appearance="filled" color="danger" shape="rounded">
              RISK
            </Badge>
          ) : (
            <Badge appearance="tint" color="success" shape="rounded">
              NO RISK
            </Badge>
          )}
        </>
      }
      open={open}
      content={g.roles != null ? <DetailedReviewRoles group={g.roles} /> : null}
      refetch={refetch}
      loadingLabel="Loading composite roles..."
    />
  );
}
