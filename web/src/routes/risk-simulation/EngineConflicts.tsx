// The engine's part of a simulation's result, when a loaded system extract
// holds the user: the conflicts that would appear and those that would go,
// each with its paths, analysed with the active rule set version as of today.
import { Body1, makeStyles, tokens } from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { EngineConflicts_engine$key } from '../../__generated__/EngineConflicts_engine.graphql';
import { EngineConflictList } from './EngineConflictList';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minWidth: 0 },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))', gap: tokens.spacingHorizontalL },
});

export function EngineConflicts({ engine: engineKey }: { engine: EngineConflicts_engine$key }) {
  const styles = useStyles();
  const engine = useFragment(
    graphql`
      fragment EngineConflicts_engine on SimulationEngineAnswer {
        ruleSetName
        ruleSetVersion
        asOf
        systems
        appear {
          ...EngineConflictList_conflicts
        }
        go {
          ...EngineConflictList_conflicts
        }
      }
    `,
    engineKey,
  );
  return (
    <div className={styles.section}>
      <Body1>{`Analysed by the engine: ${engine.ruleSetName} v${engine.ruleSetVersion} on ${engine.systems.join(', ')}, as of ${engine.asOf}.`}</Body1>
      <div className={styles.grid}>
        <EngineConflictList title="Conflicts That Would Appear" conflicts={engine.appear} empty="No conflict would appear." tone="danger" />
        <EngineConflictList title="Conflicts That Would Go" conflicts={engine.go} empty="No conflict would go." tone="success" />
      </div>
    </div>
  );
}
