// The engine's part of a simulation's result, when a loaded system extract
// holds the user: the conflicts that would appear and those that would go,
// each with its paths (risk, function, system, action, role), analysed with
// the active rule set version as of today.
import { Badge, Body1, makeStyles, Subtitle2, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';

export type EnginePath = { readonly functionId: string; readonly system: string; readonly action: string; readonly role: string; readonly composite: string };
export type EngineConflict = { readonly riskId: string; readonly riskDescription: string; readonly riskLevel: string; readonly paths: readonly EnginePath[] };
export type EngineAnswer = {
  readonly ruleSetName: string;
  readonly ruleSetVersion: number;
  readonly asOf: string;
  readonly systems: readonly string[];
  readonly appear: readonly EngineConflict[];
  readonly go: readonly EngineConflict[];
};

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minWidth: 0 },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))', gap: tokens.spacingHorizontalL },
  conflict: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS, minWidth: 0 },
  heading: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  scroll: { overflowX: 'auto' },
  table: { tableLayout: 'auto' },
  muted: { color: tokens.colorNeutralForeground3 },
});

function Conflicts({ title, conflicts, empty, tone }: { title: string; conflicts: readonly EngineConflict[]; empty: string; tone: 'danger' | 'success' }) {
  const styles = useStyles();
  return (
    <section aria-label={title} className={styles.section}>
      <Subtitle2 as="h3">
        {title} ({conflicts.length})
      </Subtitle2>
      {conflicts.length === 0 ? <Body1 className={styles.muted}>{empty}</Body1> : null}
      {conflicts.map((c) => (
        <div key={c.riskId} className={styles.conflict}>
          <div className={styles.heading}>
            <Badge appearance="tint" color={tone}>
              {c.riskId}
            </Badge>
            <Body1>{c.riskDescription}</Body1>
            {c.riskLevel ? <Body1 className={styles.muted}>{c.riskLevel}</Body1> : null}
          </div>
          {/* A table wider than its column scrolls here; focusable, so the keyboard can scroll it too. */}
          <div className={styles.scroll} tabIndex={0} role="group" aria-label={`Paths of ${c.riskId}, scrollable`}>
            <Table size="small" aria-label={`Paths of ${c.riskId}`} className={styles.table}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Function</TableHeaderCell>
                  <TableHeaderCell>System</TableHeaderCell>
                  <TableHeaderCell>Action</TableHeaderCell>
                  <TableHeaderCell>Role</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {c.paths.map((p, i) => (
                  <TableRow key={`${p.functionId}|${p.system}|${p.action}|${p.role}|${p.composite}|${i}`}>
                    <TableCell>{p.functionId}</TableCell>
                    <TableCell>{p.system}</TableCell>
                    <TableCell>{p.action}</TableCell>
                    <TableCell>
                      {p.composite || p.role}
                      {p.composite ? <span className={styles.muted}> / {p.role}</span> : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </div>
      ))}
    </section>
  );
}

export function EngineConflicts({ engine }: { engine: EngineAnswer }) {
  const styles = useStyles();
  return (
    <div className={styles.section}>
      <Body1>
        {`Analysed by the engine: ${engine.ruleSetName} v${engine.ruleSetVersion} on ${engine.systems.join(', ')}, as of ${engine.asOf}.`}
      </Body1>
      <div className={styles.grid}>
        <Conflicts title="Conflicts That Would Appear" conflicts={engine.appear} empty="No conflict would appear." tone="danger" />
        <Conflicts title="Conflicts That Would Go" conflicts={engine.go} empty="No conflict would go." tone="success" />
      </div>
    </div>
  );
}
