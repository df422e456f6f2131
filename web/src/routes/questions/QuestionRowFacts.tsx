import { Card, CardHeader, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Table24Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { QuestionRowFacts_row$key } from '../../__generated__/QuestionRowFacts_row.graphql';
import { shortDate } from '../../components/format/dates';
import { RiskLevelIndicator, TechName } from '../../domain/risks/riskDisplay';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minWidth: 0 },
  // Label and value side by side; one column on a phone.
  facts: {
    display: 'grid',
    gridTemplateColumns: 'minmax(120px, max-content) minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    '@media (max-width: 480px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  pair: { display: 'contents' },
  term: { color: tokens.colorNeutralForeground3 },
  value: { margin: 0, overflowWrap: 'anywhere' },
});

/** The row asked about, read-only: what the access is and what the export says of its use. */
export function QuestionRowFacts({ row }: { row: QuestionRowFacts_row$key }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment QuestionRowFacts_row on RiskRow {
        userId
        userName
        userGroup
        accessRiskId
        riskDescription
        riskLevel
        ruleId
        system
        roleProfile
        roleProfileDescription
        compositeBusinessRole
        businessProcess
        function
        functionDescription
        action
        actionDescription
        executionCount
        lastExecutedOn
      }
    `,
    row,
  );
  const facts: [string, ReactNode][] = [
    ['User', `${r.userName || r.userId} (${r.userId})${r.userGroup ? ` · ${r.userGroup}` : ''}`],
    ['Risk', `${r.accessRiskId}: ${r.riskDescription}`],
    ['Risk Level', <RiskLevelIndicator key="level" level={r.riskLevel} />],
    ['Rule ID', r.ruleId || '—'],
    ['System', r.system],
    ['Role Profile', r.roleProfile ? <TechName key="role" value={r.roleProfile} /> : '—'],
    ['Role Description', r.roleProfileDescription || '—'],
    ['Composite Role', r.compositeBusinessRole || 'Assigned directly'],
    ['Business Process', r.businessProcess || '—'],
    ['Function', r.function ? `${r.function}${r.functionDescription ? `: ${r.functionDescription}` : ''}` : '—'],
    ['Action', r.action ? `${r.action}${r.actionDescription ? `: ${r.actionDescription}` : ''}` : '—'],
    ['Executions', r.executionCount == null ? 'Unknown' : r.executionCount.toLocaleString('en-US')],
    ['Last Executed', r.lastExecutedOn ? shortDate(r.lastExecutedOn) : 'Never or unknown'],
  ];
  return (
    <Card className={styles.card}>
      <CardHeader image={<Table24Regular />} header={<Text weight="semibold">The Row (read-only)</Text>} />
      <dl className={styles.facts}>
        {facts.map(([term, value]) => (
          <div key={term} className={styles.pair}>
            <dt className={styles.term}>{term}</dt>
            <dd className={styles.value}>{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
