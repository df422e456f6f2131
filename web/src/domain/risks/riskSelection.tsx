// The risk tables' page selection and batch decisions (the risk queue and My
// Assigned Risks): the rows chosen on this page, the header's select-all cell,
// and the Retain / Remove Selected buttons.
import { Button, makeStyles, Spinner, TableSelectionCell, tokens } from '@fluentui/react-components';
import { Checkmark20Regular, Dismiss20Regular, SelectAllOn20Regular, ShieldCheckmark20Regular } from '@fluentui/react-icons';
import { lazy, Suspense, useState } from 'react';
import type { RiskFilterInput } from './DecisionDialogs';
import { decisionLabel } from './riskDisplay';
import { needsRemovalComment, useSaveDecisions, type Decision, type DecisionDetails } from './useSaveDecisions';

// The batch actions' dialogs load when one is first opened, not with the list.
const DecideAllDialog = lazy(() => import('./DecisionDialogs').then((m) => ({ default: m.DecideAllDialog })));
const DecisionDetailsDialog = lazy(() => import('./DecisionDialogs').then((m) => ({ default: m.DecisionDetailsDialog })));

const useStyles = makeStyles({
  selectCol: { width: '44px' },
  retain: { color: tokens.colorPaletteGreenForeground1 },
  remove: { color: tokens.colorPaletteRedForeground1 },
});

export type PageSelection = {
  /** The selected rows of this page, in the page's order. */
  chosen: string[];
  /** The select-all checkbox: every row, some or none. */
  all: boolean | 'mixed';
  toggleAll: () => void;
  toggle: (id: string) => void;
};

/** The selection among the rows of one page (`selected` may hold rows of other pages: they do not count). */
export function usePageSelection(
  ids: readonly string[],
  selected: ReadonlySet<string>,
  onSelectedChange: (selected: ReadonlySet<string>) => void,
): PageSelection {
  const chosen = ids.filter((id) => selected.has(id));
  const allChecked = ids.length > 0 && chosen.length === ids.length;
  return {
    chosen,
    all: allChecked ? true : chosen.length > 0 ? 'mixed' : false,
    toggleAll: () => onSelectedChange(allChecked ? new Set() : new Set(ids)),
    toggle: (id) => {
      const next = new Set(selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      onSelectedChange(next);
    },
  };
}

/** The header cell that selects every risk on the page, or none. */
export function SelectAllRisksCell({ selection }: { selection: PageSelection }) {
  const styles = useStyles();
  return (
    <TableSelectionCell
      className={styles.selectCol}
      checked={selection.all}
      onClick={selection.toggleAll}
      checkboxIndicator={{ 'aria-label': 'Select all risks on this page' }}
    />
  );
}

const BATCH_BUTTONS = [
  { decision: 'RETAIN', label: 'Retain Selected', Icon: Checkmark20Regular },
  { decision: 'REMOVE', label: 'Remove Selected', Icon: Dismiss20Regular },
] as const;

/**
 * Retain / Remove / Mitigate Selected: one decision on the chosen rows (a
 * spinner while it saves; a removal refused for want of a comment asks for
 * it), and 'Decide all N matching': every row matching `filter`.
 */
export function BatchDecisionButtons({
  chosen,
  disabled,
  onSaved,
  filter,
  total,
  stage = 1,
}: {
  chosen: readonly string[];
  disabled: boolean;
  onSaved: () => void;
  /** The filters of the rows on screen, and how many rows match them. */
  filter: RiskFilterInput;
  total: number;
  /** The viewer's stage of a multi-stage period (past 1, each decision confirms or overturns the stage before's). */
  stage?: number;
}) {
  const styles = useStyles();
  const [save, saving] = useSaveDecisions();
  const [dialog, setDialog] = useState<{ decision: Decision; rowIds: readonly string[]; intro?: string } | 'all' | null>(null);
  const decide = (rowIds: readonly string[], decision: Decision, details?: DecisionDetails) =>
    save({
      rowIds,
      decision,
      details,
      describe: (n) => `${n} ${n === 1 ? 'risk' : 'risks'} marked ${decisionLabel(decision)}.`,
      onRefused: (refusal) => {
        if (decision !== 'REMOVE' || details || !needsRemovalComment(refusal)) return false;
        setDialog({ decision, rowIds, intro: `${refusal.message}.` });
        return true;
      },
      onSaved: () => {
        setDialog(null);
        onSaved();
      },
    });
  return (
    <>
      {BATCH_BUTTONS.map(({ decision, label, Icon }) => (
        <Button
          key={decision}
          size="small"
          icon={saving ? <Spinner size="tiny" /> : <Icon className={styles[decision === 'REMOVE' ? 'remove' : 'retain']} />}
          disabled={disabled || saving}
          onClick={() => decide(chosen, decision)}
        >
          {label} ({chosen.length})
        </Button>
      ))}
      <Button
        size="small"
        icon={<ShieldCheckmark20Regular className={styles.retain} />}
        disabled={disabled || saving || chosen.length === 0}
        onClick={() => setDialog({ decision: 'RETAIN_MITIGATED', rowIds: chosen })}
      >
        Mitigate Selected ({chosen.length})
      </Button>
      <Button size="small" icon={<SelectAllOn20Regular />} disabled={disabled || saving || total === 0} onClick={() => setDialog('all')}>
        Decide all {total} matching
      </Button>
      <Suspense fallback={null}>
        {dialog === 'all' ? (
          <DecideAllDialog
            filter={filter}
            total={total}
            stage={stage}
            onClose={() => setDialog(null)}
            onDecided={() => {
              setDialog(null);
              onSaved();
            }}
          />
        ) : dialog ? (
          <DecisionDetailsDialog
            decision={dialog.decision}
            count={dialog.rowIds.length}
            intro={dialog.intro}
            busy={saving}
            onConfirm={(details) => decide(dialog.rowIds, dialog.decision, details)}
            onClose={() => setDialog(null)}
          />
        ) : null}
      </Suspense>
    </>
  );
}
