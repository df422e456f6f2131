import { Caption1, makeStyles, mergeClasses, Switch, TableCell, TableCellLayout, TableRow, TableSelectionCell, Text, tokens } from '@fluentui/react-components';
import { useId } from 'react';
import { graphql, useFragment } from 'react-relay';
import type { RiskQueueRow_row$key } from '../../__generated__/RiskQueueRow_row.graphql';
import { DecisionBadge, decisionLabel, RiskLevelIndicator, TechName } from '../../domain/risks/riskDisplay';
import { useSaveDecisions } from '../../domain/risks/useSaveDecisions';
import { RecommendationHint } from '../../domain/risks/RecommendationHint';
import { NewSinceBadge } from '../../domain/risks/NewSinceBadge';

const useStyles = makeStyles({
  primary: { fontWeight: tokens.fontWeightSemibold },
  wrap: { overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  noGroup: { color: tokens.colorNeutralForeground4, fontStyle: 'italic' },
  clamp: {
    display: '-webkit-box',
    WebkitLineClamp: '2',
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
  },
  highRule: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  selectedRow: { backgroundColor: tokens.colorBrandBackground2 },
  decision: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  // Pending (no decision yet) does not look like Remove.
  pendingIndicator: {
    borderTopStyle: 'dashed',
    borderRightStyle: 'dashed',
    borderBottomStyle: 'dashed',
    borderLeftStyle: 'dashed',
    color: tokens.colorNeutralForeground4,
  },
  removeIndicator: {
    borderTopColor: tokens.colorPaletteRedBorder2,
    borderRightColor: tokens.colorPaletteRedBorder2,
    borderBottomColor: tokens.colorPaletteRedBorder2,
    borderLeftColor: tokens.colorPaletteRedBorder2,
    color: tokens.colorPaletteRedForeground1,
  },
});

/** One risk of the queue: user, level dot, role, risk, system and the retain/remove switch. */
export function RiskQueueRow({ row, selected, onToggle, locked }: { row: RiskQueueRow_row$key; selected: boolean; onToggle: () => void; locked: boolean }) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment RiskQueueRow_row on RiskRow {
        id
        userId
        userName
        userGroup
        riskLevel
        roleProfile
        roleProfileDescription
        riskDescription
        accessRiskId
        ruleId
        isHighRiskRule
        system
        myDecision
        myMitigationControl
        myMitigationExpiresAt
        ...RecommendationHint_row
        ...NewSinceBadge_row
      }
    `,
    row,
  );
  const [save, saving] = useSaveDecisions();

  const decide = (decision: 'RETAIN' | 'REMOVE') =>
    save({
      rowIds: [r.id],
      decision,
      describe: () => `${r.userName || r.userId} · ${r.accessRiskId}: ${decisionLabel(decision)}`,
      optimistic: { previous: r.myDecision ?? null },
    });

  const retained = r.myDecision === 'RETAIN' || r.myDecision === 'RETAIN_MITIGATED';
  const who = r.userName || r.userId;
  const stateId = useId();
  const state = r.myDecision === 'REMOVE' ? 'remove' : retained ? 'retain' : 'pending';

  return (
    <TableRow aria-selected={selected} className={selected ? styles.selectedRow : undefined}>
      <TableSelectionCell checked={selected} onClick={onToggle} checkboxIndicator={{ 'aria-label': `Select ${who} ${r.accessRiskId} ${r.roleProfile}` }} />
      <TableCell>
        <TableCellLayout
          description={r.userGroup ? <Caption1 className={styles.muted}>{r.userGroup}</Caption1> : <Caption1 className={styles.noGroup}>No Group</Caption1>}
        >
          <Text className={styles.primary}>{who}</Text>
          <NewSinceBadge row={r} />
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <RiskLevelIndicator level={r.riskLevel} />
      </TableCell>
      <TableCell>
        <TableCellLayout className={styles.wrap} description={<Caption1 className={styles.muted}>{r.roleProfileDescription}</Caption1>}>
          {r.roleProfile ? <TechName value={r.roleProfile} /> : '—'}
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <TableCellLayout
          description={
            <Caption1 className={styles.muted}>
              {r.accessRiskId}
              {r.ruleId ? (
                <>
                  {' · Rule '}
                  <span className={r.isHighRiskRule ? styles.highRule : undefined} title={r.isHighRiskRule ? 'High-risk rule' : undefined}>
                    {r.ruleId}
                  </span>
                </>
              ) : null}
            </Caption1>
          }
        >
          <span className={styles.clamp}>{r.riskDescription || '—'}</span>
        </TableCellLayout>
      </TableCell>
      <TableCell>{r.system}</TableCell>
      <TableCell>
        <div className={styles.decision} data-decision={state}>
          <Switch
            checked={retained}
            disabled={locked || saving}
            aria-label={`Retain access: ${who} ${r.accessRiskId} ${r.roleProfile}`}
            aria-describedby={stateId}
            indicator={{
              className: mergeClasses(state === 'pending' && styles.pendingIndicator, state === 'remove' && styles.removeIndicator),
            }}
            onChange={(_, d) => decide(d.checked ? 'RETAIN' : 'REMOVE')}
          />
          <span id={stateId}>
            <DecisionBadge decision={r.myDecision} control={r.myMitigationControl} expiresAt={r.myMitigationExpiresAt} />
          </span>
        </div>
        <RecommendationHint row={r} />
      </TableCell>
    </TableRow>
  );
}
