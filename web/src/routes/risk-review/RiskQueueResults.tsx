import {
  Body1,
  Button,
  makeStyles,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableHeader,
  TableHeaderCell,
  TableRow,
  TableSelectionCell,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Checkmark20Regular, Dismiss20Regular, SearchInfo24Regular } from '@fluentui/react-icons';
import type { RiskQueueQuery$data } from '../../__generated__/RiskQueueQuery.graphql';
import { Pagination, RISK_PAGE_SIZE } from '../../components/Pagination';
import { useBatchDecisions } from '../../components/useBatchDecisions';
import { RiskQueueRow } from './RiskQueueRow';

const useStyles = makeStyles({
  batch: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
    paddingTop: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground2,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  batchInfo: { color: tokens.colorNeutralForeground3, marginRight: 'auto' },
  scroll: { overflowX: 'auto' },
  table: { minWidth: '900px' },
  selectCol: { width: '44px' },
  userCol: { width: '15%' },
  levelCol: { width: '88px' },
  roleCol: { width: '17%' },
  systemCol: { width: '118px' },
  decisionCol: { width: '124px' },
  footer: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: tokens.spacingHorizontalXXL,
    color: tokens.colorNeutralForeground3,
  },
  retain: { color: tokens.colorPaletteGreenForeground1 },
  remove: { color: tokens.colorPaletteRedForeground1 },
});


type Rows = RiskQueueQuery$data['riskQueue']['rows'];

export function RiskQueueResults({
  rows,
  total,
  page,
  locked,
  onPageChange,
  selected,
  onSelectedChange,
  onBatchSaved,
  busy,
}: {
  rows: Rows;
  total: number;
  page: number;
  locked: boolean;
  onPageChange: (page: number) => void;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: ReadonlySet<string>) => void;
  onBatchSaved: () => void;
  busy: boolean;
}) {
  const styles = useStyles();

  const ids = rows.map((r) => r.id);
  const chosen = ids.filter((id) => selected.has(id));
  const allChecked = ids.length > 0 && chosen.length === ids.length;
  const someChecked = chosen.length > 0 && !allChecked;

  const toggleAll = () => onSelectedChange(allChecked ? new Set() : new Set(ids));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange(next);
  };

  const [decide, saving] = useBatchDecisions(() => {
    onSelectedChange(new Set());
    onBatchSaved();
  });
  const decideSelected = (decision: 'retain' | 'remove') => decide(chosen, decision);

  return (
    <>
      <div className={styles.batch} role="toolbar" aria-label="Batch decisions">
        <Text size={200} className={styles.batchInfo}>
          {chosen.length ? `${chosen.length} selected on this page` : 'Select risks to decide on them together'}
        </Text>
        <Button
          size="small"
          icon={saving ? <Spinner size="tiny" /> : <Checkmark20Regular className={styles.retain} />}
          disabled={locked || saving}
          onClick={() => decideSelected('retain')}
        >
          Retain Selected ({chosen.length})
        </Button>
        <Button
          size="small"
          icon={saving ? <Spinner size="tiny" /> : <Dismiss20Regular className={styles.remove} />}
          disabled={locked || saving}
          onClick={() => decideSelected('remove')}
        >
          Remove Selected ({chosen.length})
        </Button>
      </div>
      {rows.length === 0 ? (
        <div className={styles.empty}>
          <SearchInfo24Regular />
          <Subtitle2 as="h3">No risks found</Subtitle2>
          <Body1>No risk matches the search and filters. Clear a filter to see more.</Body1>
        </div>
      ) : (
        <div className={styles.scroll}>
          <Table className={styles.table} aria-label="Risks" aria-busy={busy}>
            <TableHeader>
              <TableRow>
                <TableSelectionCell
                  className={styles.selectCol}
                  checked={allChecked ? true : someChecked ? 'mixed' : false}
                  onClick={toggleAll}
                  checkboxIndicator={{ 'aria-label': 'Select all risks on this page' }}
                />
                <TableHeaderCell className={styles.userCol}>User</TableHeaderCell>
                <TableHeaderCell className={styles.levelCol}>Risk Level</TableHeaderCell>
                <TableHeaderCell className={styles.roleCol}>Role/Profile</TableHeaderCell>
                <TableHeaderCell>Risk Description</TableHeaderCell>
                <TableHeaderCell className={styles.systemCol}>System</TableHeaderCell>
                <TableHeaderCell className={styles.decisionCol}>Decision</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => (
                <RiskQueueRow key={r.id} row={r} selected={selected.has(r.id)} onToggle={() => toggle(r.id)} locked={locked} />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <Pagination className={styles.footer} page={page} pageSize={RISK_PAGE_SIZE} total={total} onPageChange={onPageChange} disabled={busy} />
    </>
  );
}
