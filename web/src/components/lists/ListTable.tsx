import {
  Body1,
  Button,
  Caption1,
  makeStyles,
  mergeClasses,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { useRef, type ReactElement, type ReactNode } from 'react';
import { useCardLabels, useCardTableStyles } from './cardTable';

const useStyles = makeStyles({
  scroller: {
    overflowX: 'auto',
  },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
    color: tokens.colorNeutralForeground3,
  },
  footer: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    flexWrap: 'wrap',
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalM,
    paddingRight: tokens.spacingHorizontalM,
    color: tokens.colorNeutralForeground3,
  },
});

export type ListTableColumn = {
  label: string;
  /** Its width, for instance. */
  className?: string;
};

export type ListTableProps = {
  /** The accessible name of the table, or of the list. */
  label: string;
  columns: readonly ListTableColumn[];
  /** The rows: `TableRow`s, or `li`s when `asList`. */
  rows: readonly ReactNode[];
  /** Shown in place of the rows when there are none: in a row under the table's header, or alone (see `emptyAlone`). */
  empty: ReactNode;
  /** With no rows, `empty` stands alone, without the table's header (as it always does in the list form). */
  emptyAlone?: boolean;
  /** The narrow-screen form: the rows as a plain list instead of a table. */
  asList?: boolean;
  /** The narrow-screen form of a table whose rows stay table rows: each row a card (cardTable.ts). */
  asCards?: boolean;
  /** The table's class (its minimum width, its layout). */
  className?: string;
};

/** A table that scrolls sideways when the screen is narrower than it, or on narrow screens a list. */
export function ListTable({ label, columns, rows, empty, emptyAlone = false, asList = false, asCards = false, className }: ListTableProps) {
  const styles = useStyles();
  const cards = useCardTableStyles();
  const tableRef = useRef<HTMLTableElement>(null);
  useCardLabels(tableRef, asCards);
  if (rows.length === 0 && (asList || emptyAlone)) return <>{empty}</>;
  if (asList) {
    return (
      <ul className={styles.list} aria-label={label}>
        {rows}
      </ul>
    );
  }
  return (
    <div className={styles.scroller}>
      <Table ref={tableRef} className={mergeClasses(className, asCards && cards.cards)} aria-label={label}>
        <TableHeader>
          <TableRow>
            {columns.map((c) => (
              <TableHeaderCell key={c.label} className={c.className}>
                {c.label}
              </TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length}>{empty}</TableCell>
            </TableRow>
          ) : (
            rows
          )}
        </TableBody>
      </Table>
    </div>
  );
}

/** What a list shows when it has nothing to show: an icon, a line and an optional explanation. */
export function ListEmpty({ icon, title, description }: { icon: ReactElement; title: string; description?: string }) {
  const styles = useStyles();
  return (
    <div className={styles.empty}>
      {icon}
      <Body1>{title}</Body1>
      {description ? <Caption1>{description}</Caption1> : null}
    </div>
  );
}

export type LoadMoreFooterProps = {
  /** 'Showing …' */
  summary: ReactNode;
  hasNext: boolean;
  isLoadingNext: boolean;
  onLoadMore: () => void;
  loadMoreLabel: string;
  className?: string;
};

/** Under a paginated list: how much is shown, and a button for the next page while there is one. */
export function LoadMoreFooter({ summary, hasNext, isLoadingNext, onLoadMore, loadMoreLabel, className }: LoadMoreFooterProps) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.footer, className)}>
      {summary}
      <LoadMoreButton hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={onLoadMore} label={loadMoreLabel} />
    </div>
  );
}

/** The button that loads a paginated list's next page (nothing once there is none); a spinner while it loads. */
export function LoadMoreButton({
  hasNext,
  isLoadingNext,
  onLoadMore,
  label,
  size,
  appearance,
}: {
  hasNext: boolean;
  isLoadingNext: boolean;
  onLoadMore: () => void;
  label: string;
  size?: 'small' | 'medium';
  appearance?: 'secondary';
}) {
  if (!hasNext) return null;
  return (
    <Button size={size} appearance={appearance} onClick={onLoadMore} disabled={isLoadingNext} icon={isLoadingNext ? <Spinner size="tiny" /> : undefined}>
      {label}
    </Button>
  );
}
