import { Badge } from '@fluentui/react-components';
import { graphql, useRefetchableFragment } from 'react-relay';
import type { CompositeViewGroup_group$key } from '../../__generated__/CompositeViewGroup_group.graphql';
import type { CompositeViewGroupRefetchQuery } from '../../__generated__/CompositeViewGroupRefetchQuery.graphql';
import { CompositeViewCount, CompositeViewItem } from './CompositeViewItem';
import { CompositeViewRoles } from './CompositeViewRoles';
import { AiSuggestionBanner } from './AiSuggestionBanner';

/** One access risk of a user: total, RISK / NO RISK, status; expanded, the composite roles carrying it (loaded then). */
export function CompositeViewGroup({ group, open }: { group: CompositeViewGroup_group$key; open: boolean }) {
  const [g, refetch] = useRefetchableFragment<CompositeViewGroupRefetchQuery, CompositeViewGroup_group$key>(
    graphql`
      fragment CompositeViewGroup_group on CompositeRiskGroup
      @refetchable(queryName: "CompositeViewGroupRefetchQuery")
      @argumentDefinitions(expanded: { type: "Boolean", defaultValue: false }) {
        id
        accessRiskId
        riskDescription
        isRisk
        totalRisks
        decidedRisks
        allDecided
        ...AiSuggestionBanner_group
        ...CompositeViewRoles_group @include(if: $expanded) @alias(as: "roles")
      }
    `,
    group,
  );

  return (
    <CompositeViewItem
      nested
      value={g.id}
      label={`Risk ${g.accessRiskId}: ${g.riskDescription}; ${g.isRisk ? 'RISK' : 'NO RISK'}, ${g.totalRisks} total, ${g.allDecided ? 'all decided' : 'decisions pending'}`}
      decided={g.allDecided}
      title={g.accessRiskId}
      subtitle={g.riskDescription || '—'}
      counts={
        <>
          <CompositeViewCount>{g.totalRisks} total</CompositeViewCount>
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
      content={
        g.roles != null ? (
          <>
            <AiSuggestionBanner group={g} />
            <CompositeViewRoles group={g.roles} />
          </>
        ) : null
      }
      refetch={refetch}
      loadingLabel="Loading composite roles..."
    />
  );
}
