import { Accordion, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { BookDatabase24Regular } from '@fluentui/react-icons';
import { graphql, usePaginationFragment } from 'react-relay';
import type { RuleSetRisks_ruleSet$key } from '../../../__generated__/RuleSetRisks_ruleSet.graphql';
import type { RuleSetRisksPaginationQuery } from '../../../__generated__/RuleSetRisksPaginationQuery.graphql';
import { ListEmpty, LoadMoreFooter } from '../../../components/lists/ListTable';
import { formatCount } from '../../../components/layout/StatTile';
import { RuleSetRiskItem } from './RuleSetRiskItem';

/** '1 risk', '2 risks'. */
const counted = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

/** Risks per page of the browser (a variable: the server's cost limit multiplies literal page sizes). */
export const RISKS_PAGE = 50;

const useStyles = makeStyles({
  muted: { color: tokens.colorNeutralForeground3 },
});

/** A version's risks by risk id, a page at a time, each one opening to its functions. */
export function RuleSetRisks({ ruleSet, label }: { ruleSet: RuleSetRisks_ruleSet$key; label: string }) {
  const styles = useStyles();
  const { data, hasNext, isLoadingNext, loadNext } = usePaginationFragment<RuleSetRisksPaginationQuery, RuleSetRisks_ruleSet$key>(
    graphql`
      fragment RuleSetRisks_ruleSet on AccessRuleSet
      @refetchable(queryName: "RuleSetRisksPaginationQuery")
      @argumentDefinitions(count: { type: "Int!" }, cursor: { type: "String" }) {
        functions
        actions
        permissions
        riskList(first: $count, after: $cursor) @connection(key: "RuleSetRisks_riskList") {
          totalCount
          edges {
            node {
              riskId
              ...RuleSetRiskItem_risk
            }
          }
        }
      }
    `,
    ruleSet,
  );
  const edges = data.riskList.edges;
  if (!edges.length) return <ListEmpty icon={<BookDatabase24Regular />} title="No risks" description="This rule set version has no risks." />;
  return (
    <>
      <Caption1 className={styles.muted}>
        {`${counted(data.riskList.totalCount, 'risk')}, ${counted(data.functions, 'function')}, ${counted(data.actions, 'enabled action')}, ${counted(data.permissions, 'enabled permission')}. Open a risk to see its functions, their actions and permissions.`}
      </Caption1>
      <Accordion multiple collapsible aria-label={`Risks of ${label}`}>
        {edges.map((e) => (
          <RuleSetRiskItem key={e.node.riskId} risk={e.node} />
        ))}
      </Accordion>
      <LoadMoreFooter
        summary={`Showing ${formatCount(edges.length)} of ${formatCount(data.riskList.totalCount)} risks`}
        hasNext={hasNext}
        isLoadingNext={isLoadingNext}
        onLoadMore={() => loadNext(RISKS_PAGE)}
        loadMoreLabel="Load More"
      />
    </>
  );
}
