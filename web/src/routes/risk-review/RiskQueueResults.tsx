import { makeStyles, mergeClasses, Table, TableBody, TableHeader, TableHeaderCell, TableRow, Text, tokens } from '@fluentui/react-components';
import { SearchInfo24Regular } from '@fluentui/react-icons';
import type { RiskFilterInput, RiskQueueQuery$data } from '../../__generated__/RiskQueueQuery.graphql';
import { EmptyState } from '../../components/layout/EmptyState';
import { Pagination } from '../../components/lists/Pagination';
import { RISK_PAGE_SIZE } from '../../domain/risks/riskPaging';
import { BatchDecisionButtons, SelectAllRisksCell, usePageSelection } from '../../domain/risks/riskSelection';
import { RiskQueueRow } from './RiskQueueRow';
import { useRef } from 'react';
import { useCardLabels, useCardTableStyles } from '../../components/lists/cardTable';
import { useIsMobile } from '../../components/layout/useMediaQuery';
import { useRowsInSteps } from '../../components/lists/useRowsInSteps';

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
  userCol: { width: '15%' },
  levelCol: { width: '88px' },
  roleCol: { width: '17%' },
  systemCol: { width: '118px' },
  decisionCol: { width: '176px' },
  footer: { borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
});

type Rows = readonly RiskQueueQuery$data['riskQueue']['edges'][number]['node'][];

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
  filter,
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
  /** The filters of the rows on screen. */
  filter: RiskFilterInput;
}) {
  const styles = useStyles();
  // Cards on a phone.
  const cards = useCardTableStyles();
  const isMobile = useIsMobile();
  const tableRef = useRef<HTMLTableElement>(null);
  useCardLabels(tableRef, isMobile);

  const selection = usePageSelection(
    rows.map((r) => r.id),
    selected,
    onSelectedChange,
  );
  const chosen = selection.chosen;
  const shown = useRowsInSteps(rows);

  return (
    <>
      <div className={styles.batch} role="toolbar" aria-label="Batch decisions">
        <Text size={200} className={styles.batchInfo}>
          {chosen.length ? `${chosen.length} selected on this page` : 'Select risks to decide on them together'}
        </Text>
        <BatchDecisionButtons
          chosen={chosen}
          disabled={locked}
          onSaved={() => {
            onSelectedChange(new Set());
            onBatchSaved();
          }}
          filter={filter}
          total={total}
        />
      </div>
      {rows.length === 0 ? (
        <EmptyState
          icon={<SearchInfo24Regular />}
          heading="h3"
          title="No risks found"
          description="No risk matches the search and filters. Clear a filter to see more."
        />
      ) : (
        <div className={styles.scroll}>
          <Table ref={tableRef} className={mergeClasses(styles.table, isMobile && cards.cards)} aria-label="Risks" aria-busy={busy}>
            <TableHeader>
              <TableRow>
                <SelectAllRisksCell selection={selection} />
                <TableHeaderCell className={styles.userCol}>User</TableHeaderCell>
                <TableHeaderCell className={styles.levelCol}>Risk Level</TableHeaderCell>
                <TableHeaderCell className={styles.roleCol}>Role/Profile</TableHeaderCell>
                <TableHeaderCell>Risk Description</TableHeaderCell>
                <TableHeaderCell className={styles.systemCol}>System</TableHeaderCell>
                <TableHeaderCell className={styles.decisionCol}>Decision</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((r) => (
                <RiskQueueRow key={r.id} row={r} selected={selected.has(r.id)} onToggle={() => selection.toggle(r.id)} locked={locked} />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <Pagination className={styles.footer} page={page} pageSize={RISK_PAGE_SIZE} total={total} onPageChange={onPageChange} disabled={busy} />
    </>
  );
}
