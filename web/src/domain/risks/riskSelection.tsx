// The risk tables' page selection and batch decisions (the risk queue and My
// Assigned Risks): the rows chosen on this page, the header's select-all cell,
// and the Retain / Remove Selected buttons.
import { Button, makeStyles, Spinner, TableSelectionCell, tokens } from '@fluentui/react-components';
import { Checkmark20Regular, Dismiss20Regular } from '@fluentui/react-icons';
import { useSaveDecisions } from './useSaveDecisions';

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
  { decision: 'retain', label: 'Retain Selected', Icon: Checkmark20Regular },
  { decision: 'remove', label: 'Remove Selected', Icon: Dismiss20Regular },
] as const;

/** Retain Selected / Remove Selected: one decision on the chosen rows (a spinner while it saves). */
export function BatchDecisionButtons({ chosen, disabled, onSaved }: { chosen: readonly string[]; disabled: boolean; onSaved: () => void }) {
  const styles = useStyles();
  const [save, saving] = useSaveDecisions();
  const decide = (rowIds: readonly string[], decision: 'retain' | 'remove') =>
    save({
      rowIds,
      decision,
      describe: (n) => `${n} ${n === 1 ? 'risk' : 'risks'} marked ${decision === 'retain' ? 'Retain' : 'Remove'}.`,
      onSaved,
    });
  return (
    <>
      {BATCH_BUTTONS.map(({ decision, label, Icon }) => (
        <Button
          key={decision}
          size="small"
          icon={saving ? <Spinner size="tiny" /> : <Icon className={styles[decision]} />}
          disabled={disabled || saving}
          onClick={() => decide(chosen, decision)}
        >
          {label} ({chosen.length})
        </Button>
      ))}
    </>
  );
}
