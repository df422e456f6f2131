// The simulation's result (SPEC §2, §4): MATCH when the original and simulated
// access item counts are equal, NO MATCH otherwise, with both counts and the
// two tables side by side (what disappears highlighted), and 'Back to Setup'.
import {
  Badge,
  Body1,
  Button,
  Card,
  makeStyles,
  mergeClasses,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Title3,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeft20Regular } from '@fluentui/react-icons';
import { EngineConflicts, type EngineAnswer } from './EngineConflicts';

export type AccessItem = {
  readonly rowId: string;
  readonly roleProfile: string;
  readonly compositeBusinessRole: string;
  readonly function: string;
  readonly ruleId: string;
  readonly authObject: string;
  readonly field: string;
  readonly valueFrom: string;
  readonly valueTo: string;
  readonly removed: boolean;
};

export type SimulationOutcome = {
  readonly userId: string;
  readonly riskId: string;
  readonly match: boolean;
  readonly originalCount: number;
  readonly simulatedCount: number;
  readonly riskResolved: boolean;
  readonly missingFunctions: readonly string[];
  readonly removedRoles: readonly string[];
  readonly tableComparison: { readonly originalData: readonly AccessItem[]; readonly simulationData: readonly AccessItem[] };
  readonly engine?: EngineAnswer | null;
};

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, padding: tokens.spacingHorizontalXL },
  heading: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalS },
  counts: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalXXL, rowGap: tokens.spacingVerticalS },
  tables: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: tokens.spacingHorizontalL },
  // A section never grows past its grid column (a grid item is as wide as its content by
  // default, and then lies over the other table): a table wider than the column scrolls here.
  section: { minWidth: 0 },
  scroll: { overflowX: 'auto' },
  // Columns sized by their content (Fluent's fixed layout splits the width evenly): never
  // narrower than a cell's longest word (role and authorization names are long words), so
  // text does not run over the next cell or the other table; past the column's width the
  // table scrolls in `scroll`.
  table: { tableLayout: 'auto' },
  removed: { backgroundColor: tokens.colorPaletteRedBackground1, textDecorationLine: 'line-through' },
  muted: { color: tokens.colorNeutralForeground3 },
  back: { alignSelf: 'flex-start' },
  tableTitle: { display: 'block', marginBottom: tokens.spacingVerticalS },
});

function AccessTable({ title, items, total }: { title: string; items: readonly AccessItem[]; total: number }) {
  const styles = useStyles();
  return (
    <section aria-label={title} className={styles.section}>
      <Subtitle2 as="h3" className={styles.tableTitle}>
        {title} ({total})
      </Subtitle2>
      {items.length === 0 ? (
        <Body1 className={styles.muted}>No access items</Body1>
      ) : (
        // Focusable, so the keyboard can scroll a table wider than its column.
        <div className={styles.scroll} tabIndex={0} role="group" aria-label={`${title}, scrollable`}>
          <Table size="small" aria-label={title} className={styles.table}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Role</TableHeaderCell>
                <TableHeaderCell>Function</TableHeaderCell>
                <TableHeaderCell>Rule ID</TableHeaderCell>
                <TableHeaderCell>Auth Object</TableHeaderCell>
                <TableHeaderCell>Value</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((i) => (
                <TableRow key={i.rowId} className={mergeClasses(i.removed && styles.removed)}>
                  <TableCell>
                    {i.compositeBusinessRole || i.roleProfile}
                    {i.compositeBusinessRole ? <span className={styles.muted}> / {i.roleProfile}</span> : null}
                    {i.removed ? (
                      <>
                        {' '}
                        <Badge size="small" color="danger" appearance="tint">
                          Removed
                        </Badge>
                      </>
                    ) : null}
                  </TableCell>
                  <TableCell>{i.function}</TableCell>
                  <TableCell>{i.ruleId}</TableCell>
                  <TableCell>
                    {i.authObject}
                    {i.field ? ` ${i.field}` : ''}
                  </TableCell>
                  <TableCell>{i.valueTo && i.valueTo !== i.valueFrom ? `${i.valueFrom}–${i.valueTo}` : i.valueFrom}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {total > items.length ? <Body1 className={styles.muted}>First {items.length} of {total} shown.</Body1> : null}
    </section>
  );
}

export function RiskSimulationResult({ outcome, onBack }: { outcome: SimulationOutcome; onBack: () => void }) {
  const styles = useStyles();
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
        <AccessTable title="Original Access" items={outcome.tableComparison.originalData} total={outcome.originalCount} />
        <AccessTable title="Simulated Access" items={outcome.tableComparison.simulationData} total={outcome.simulatedCount} />
      </div>
      {outcome.engine ? <EngineConflicts engine={outcome.engine} /> : null}
      <Button className={styles.back} icon={<ArrowLeft20Regular />} onClick={onBack}>
        Back to Setup
      </Button>
    </Card>
  );
}
