import { useState } from 'react';
import {
  Button,
  Caption1,
  makeStyles,
  mergeClasses,
  Spinner,
  TableCell,
  TableCellLayout,
  TableRow,
  TableSelectionCell,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Checkmark16Regular, Dismiss16Regular, QuestionCircle16Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { AssignedRiskRow_row$data, AssignedRiskRow_row$key } from '../../__generated__/AssignedRiskRow_row.graphql';
import { DecisionBadge, decisionLabel, RiskLevelIndicator, TechName } from '../../domain/risks/riskDisplay';
import { needsRemovalComment, useSaveDecisions, type Decision, type DecisionDetails } from '../../domain/risks/useSaveDecisions';
import { DecisionDetailsDialog } from '../../domain/risks/DecisionDialogs';
import { ChangeDecisionMenu } from '../../domain/risks/ChangeDecisionMenu';
import { RecommendationHint } from '../../domain/risks/RecommendationHint';
import { NewSinceBadge } from '../../domain/risks/NewSinceBadge';
import { AskQuestionDialog } from '../../domain/questions/AskQuestionDialog';
import { RowQuestions } from '../../domain/questions/RowQuestions';
import { EarlierDecisions } from './EarlierDecisions';
import { StageRowActions } from './StageRowActions';

const useStyles = makeStyles({
  primary: { fontWeight: tokens.fontWeightSemibold },
  wrap: { overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
  // Retain and Remove on one line; 'Not sure' wraps below them in the narrow column.
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
  retain: { color: tokens.colorPaletteGreenForeground1 },
  remove: { color: tokens.colorPaletteRedForeground1 },
  riskId: { fontFamily: tokens.fontFamilyMonospace },
  clamp: { display: '-webkit-box', WebkitLineClamp: '2', WebkitBoxOrient: 'vertical', overflow: 'hidden' },
  oneLine: { display: 'block', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
  // The decision and the recommendation side by side: a row stays about two lines tall.
  decision: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', columnGap: tokens.spacingHorizontalS, minWidth: 0 },
});

/** One assigned risk with its decision; Retain / Remove on pending rows, 'Change' on decided ones while editable. */
export function AssignedRiskRow({
  row,
  editable,
  selected,
  onToggle,
}: {
  row: AssignedRiskRow_row$key;
  editable: boolean;
  selected: boolean;
  onToggle: () => void;
}) {
  const styles = useStyles();
  const r = useFragment(
    graphql`
      fragment AssignedRiskRow_row on RiskRow {
        id
        userId
        userName
        userGroup
        accessRiskId
        riskDescription
        riskLevel
        system
        roleProfile
        roleProfileDescription
        myDecision
        myMitigationControl
        myMitigationExpiresAt
        stage
        ...EarlierDecisions_row
        ...StageRowActions_row
        ...RecommendationHint_row
        ...NewSinceBadge_row
        ...RowQuestions_row
      }
    `,
    row,
  );
  const who = r.userName || r.userId;
  const { decide, saving, askComment, setAskComment } = useRowDecision(r, who);
  const [asking, setAsking] = useState(false);

  const label = `${who} ${r.accessRiskId} ${r.roleProfile}`;

  return (
    <TableRow aria-selected={selected}>
      <TableSelectionCell checked={selected} onClick={onToggle} checkboxIndicator={{ 'aria-label': `Select ${label}` }} />
      <TableCell>
        <TableCellLayout description={<Caption1 className={styles.muted}>{r.userGroup ? `${r.userId} · ${r.userGroup}` : r.userId}</Caption1>}>
          <Text className={styles.primary}>{who}</Text>
          <NewSinceBadge row={r} />
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <TableCellLayout description={<Caption1 className={mergeClasses(styles.muted, styles.clamp)}>{r.riskDescription}</Caption1>}>
          <span className={styles.riskId}>{r.accessRiskId}</span>
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <RiskLevelIndicator level={r.riskLevel} />
      </TableCell>
      <TableCell>{r.system}</TableCell>
      <TableCell>
        <TableCellLayout
          className={styles.wrap}
          description={
            <Caption1 className={mergeClasses(styles.muted, styles.oneLine)} title={r.roleProfileDescription ?? undefined}>
              {r.roleProfileDescription}
            </Caption1>
          }
        >
          {r.roleProfile ? <TechName value={r.roleProfile} /> : '—'}
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <EarlierDecisions row={r} />
        <div className={styles.decision}>
          <DecisionBadge decision={r.myDecision} control={r.myMitigationControl} expiresAt={r.myMitigationExpiresAt} />
          <RecommendationHint row={r} />
        </div>
        <RowQuestions row={r} />
      </TableCell>
      <TableCell>
        {saving ? (
          <Spinner size="tiny" label="Saving..." />
        ) : r.stage > 1 ? (
          <StageRowActions row={r} editable={editable} label={label} busy={saving} decide={decide} />
        ) : (
          <RowActions decision={r.myDecision} editable={editable} label={label} decide={decide} onNotSure={() => setAsking(true)} />
        )}
        {asking ? <AskQuestionDialog rowId={r.id} label={`${who} · ${r.accessRiskId}`} onClose={() => setAsking(false)} /> : null}
        {askComment ? (
          <DecisionDetailsDialog
            decision="REMOVE"
            count={1}
            intro={askComment}
            busy={saving}
            onConfirm={(details) => decide('REMOVE', details)}
            onClose={() => setAskComment(null)}
          />
        ) : null}
      </TableCell>
    </TableRow>
  );
}

type Row = AssignedRiskRow_row$data;

/** Saving the row's decision; a removal the server refused for want of a comment (an administrator's rule) asks for it. */
function useRowDecision(r: Row, who: string) {
  const [save, saving] = useSaveDecisions();
  const [askComment, setAskComment] = useState<string | null>(null);
  const decide = (decision: Decision, details?: DecisionDetails) => {
    const wasPending = r.myDecision == null;
    save({
      rowIds: [r.id],
      decision,
      details,
      onRefused: (refusal) => {
        if (decision !== 'REMOVE' || details || !needsRemovalComment(refusal)) return false;
        setAskComment(`${refusal.message}.`);
        return true;
      },
      onSaved: () => setAskComment(null),
      describe: () => `${who} · ${r.accessRiskId}: ${decisionLabel(decision)}`,
      onSavedInStore: (store) => {
        if (!wasPending) return;
        // A first decision on a row moves the summary tiles and the submission state.
        const root = store.getRoot();
        const summary = root.getLinkedRecord('assignedSummary');
        if (summary) {
          summary.setValue(Math.max(0, Number(summary.getValue('pendingReview') ?? 0) - 1), 'pendingReview');
          summary.setValue(Number(summary.getValue('reviewed') ?? 0) + 1, 'reviewed');
        }
        const state = root.getLinkedRecord('submissionStatus');
        if (state) {
          state.setValue(true, 'hasDecisions');
          state.setValue(Number(state.getValue('totalDecisions') ?? 0) + 1, 'totalDecisions');
        }
      },
    });
  };

  return { decide, saving, askComment, setAskComment };
}

/**
 * Retain, Remove and 'Not sure' (ask someone: not a decision, the row stays pending) on a row not
 * decided yet, 'Change' on a decided one, 'Locked' when it cannot change.
 */
function RowActions({
  decision,
  editable,
  label,
  decide,
  onNotSure,
}: {
  decision: Row['myDecision'];
  editable: boolean;
  label: string;
  decide: (d: Decision) => void;
  onNotSure: () => void;
}) {
  const styles = useStyles();
  if (decision == null) {
    return (
      <div className={styles.actions}>
        <Button
          size="small"
          icon={<Checkmark16Regular className={styles.retain} />}
          disabled={!editable}
          aria-label={`Retain ${label}`}
          onClick={() => decide('RETAIN')}
        >
          Retain
        </Button>
        <Button
          size="small"
          icon={<Dismiss16Regular className={styles.remove} />}
          disabled={!editable}
          aria-label={`Remove ${label}`}
          onClick={() => decide('REMOVE')}
        >
          Remove
        </Button>
        <Button
          size="small"
          appearance="subtle"
          icon={<QuestionCircle16Regular />}
          disabled={!editable}
          aria-label={`Not sure about ${label}: ask someone`}
          onClick={onNotSure}
        >
          Not sure
        </Button>
      </div>
    );
  }
  if (!editable) return <Caption1 className={styles.muted}>Locked</Caption1>;
  return (
    <ChangeDecisionMenu
      label={label}
      items={[
        { key: 'retain', label: 'Retain', icon: <Checkmark16Regular />, current: decision === 'RETAIN', onSelect: () => decide('RETAIN') },
        { key: 'remove', label: 'Remove', icon: <Dismiss16Regular />, current: decision === 'REMOVE', onSelect: () => decide('REMOVE') },
      ]}
    />
  );
}
