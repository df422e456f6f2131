// The simulation's result (SPEC §2, §4): MATCH when the original and simulated
// access item counts are equal, NO MATCH otherwise, with both counts and the
// two tables side by side (what disappears highlighted), and 'Back to Setup'.
import { Badge, Body1, Button, Card, makeStyles, Title3, tokens } from '@fluentui/react-components';
import { ArrowLeft20Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { RiskSimulationResult_outcome$key } from '../../__generated__/RiskSimulationResult_outcome.graphql';
import { EngineConflicts } from './EngineConflicts';
import { SimulationAccessTable } from './SimulationAccessTable';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, padding: tokens.spacingHorizontalXL },
  heading: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalS },
  counts: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalXXL, rowGap: tokens.spacingVerticalS },
  tables: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: tokens.spacingHorizontalL },
  back: { alignSelf: 'flex-start' },
});

export function RiskSimulationResult({ outcome: outcomeKey, onBack }: { outcome: RiskSimulationResult_outcome$key; onBack: () => void }) {
  const styles = useStyles();
  const outcome = useFragment(
    graphql`
      fragment RiskSimulationResult_outcome on SimulationResult {
        userId
        riskId
        match
        originalCount
        simulatedCount
        riskResolved
        missingFunctions
        removedRoles
        tableComparison {
          originalData {
            ...SimulationAccessTable_items
          }
          simulationData {
            ...SimulationAccessTable_items
          }
        }
        engine {
          ...EngineConflicts_engine
        }
      }
    `,
    outcomeKey,
  );
  const verdict = outcome.match ? 'MATCH' : 'NO MATCH';
  return (
    <Card className={styles.card}>
      <div className={styles.heading}>
        <Title3 as="h2">Simulation Result</Title3>
        <Badge size="extra-large" appearance="filled" color={outcome.match ? 'success' : 'danger'} aria-label={`Result: ${verdict}`}>
          {verdict}
        </Badge>
      </div>
      <Body1>
        User {outcome.userId}, risk {outcome.riskId}
        {outcome.removedRoles.length ? `; removed: ${outcome.removedRoles.join(', ')}` : '; no role removed'}.
      </Body1>
      <div className={styles.counts}>
        <Body1>
          Original access items: <strong>{outcome.originalCount}</strong>
        </Body1>
        <Body1>
          Simulated access items: <strong>{outcome.simulatedCount}</strong>
        </Body1>
      </div>
      {outcome.riskResolved ? (
        <Body1>
          Risk resolved: {outcome.missingFunctions.join(', ')} {outcome.missingFunctions.length === 1 ? 'is' : 'are'} no longer granted by any kept role.
        </Body1>
      ) : null}
      <div className={styles.tables}>
        <SimulationAccessTable title="Original Access" items={outcome.tableComparison.originalData} total={outcome.originalCount} />
        <SimulationAccessTable title="Simulated Access" items={outcome.tableComparison.simulationData} total={outcome.simulatedCount} />
      </div>
      {outcome.engine ? <EngineConflicts engine={outcome.engine} /> : null}
      <Button className={styles.back} icon={<ArrowLeft20Regular />} onClick={onBack}>
        Back to Setup
      </Button>
    </Card>
  );
}
