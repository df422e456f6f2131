import { Button, Caption1, Input, makeStyles, mergeClasses, tokens, useId } from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { ChevronLeft16Regular, ChevronRight16Regular } from '@fluentui/react-icons';
import { formatCount } from '../layout/StatTile';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
  },
  range: { color: tokens.colorNeutralForeground3 },
  pages: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXS,
    rowGap: tokens.spacingVerticalXS,
  },
  page: { minWidth: '32px' },
  goTo: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXS,
    marginLeft: tokens.spacingHorizontalS,
  },
  goToInput: { width: '5.5rem' },
  ellipsis: {
    paddingLeft: tokens.spacingHorizontalXS,
    paddingRight: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground3,
  },
});

/** 'Showing 1-25 of 1,234' (SPEC §2 range text). */
export function rangeText(page: number, pageSize: number, total: number): string {
  if (total === 0) return 'Showing 0 of 0';
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  return `Showing ${formatCount(first)}-${formatCount(last)} of ${formatCount(total)}`;
}

/**
 * The page buttons of SPEC §2: the first five pages, an ellipsis, the last
 * page; a current page beyond the first five is shown between ellipses.
 */
export function pageButtons(page: number, pageCount: number): Array<number | 'gap'> {
  if (pageCount <= 6) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const out: Array<number | 'gap'> = [1, 2, 3, 4, 5];
  if (page > 5 && page < pageCount) {
    if (page > 6) out.push('gap');
    out.push(page);
  }
  if (out[out.length - 1] !== pageCount - 1) out.push('gap');
  out.push(pageCount);
  return out;
}

export type PaginationProps = {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  disabled?: boolean;
  className?: string;
};

export function Pagination({ page, pageSize, total, onPageChange, disabled, className }: PaginationProps) {
  const styles = useStyles();
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className={mergeClasses(styles.root, className)} aria-label="Pagination">
      <Caption1 className={styles.range} aria-live="polite">
        {rangeText(page, pageSize, total)}
      </Caption1>
      <div className={styles.pages}>
        <Button size="small" appearance="subtle" icon={<ChevronLeft16Regular />} disabled={disabled || page <= 1} onClick={() => onPageChange(page - 1)}>
          Previous
        </Button>
        {pageButtons(page, pageCount).map((p, i) =>
          p === 'gap' ? (
            <span key={`gap-${i}`} className={styles.ellipsis} aria-hidden>
              …
            </span>
          ) : (
            <Button
              key={p}
              size="small"
              className={styles.page}
              appearance={p === page ? 'primary' : 'subtle'}
              aria-label={`Page ${p}`}
              aria-current={p === page ? 'page' : undefined}
              disabled={disabled}
              onClick={() => p !== page && onPageChange(p)}
            >
              {p}
            </Button>
          ),
        )}
        <Button
          size="small"
          appearance="subtle"
          icon={<ChevronRight16Regular />}
          iconPosition="after"
          disabled={disabled || page >= pageCount}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </Button>
        {pageCount > 1 ? <GoToPage page={page} pageCount={pageCount} disabled={disabled} onPageChange={onPageChange} /> : null}
      </div>
    </nav>
  );
}

/**
 * A page number to jump to when the buttons do not reach it
 * (1 to the last page; another number is clamped into that range).
 */
function GoToPage({ page, pageCount, disabled, onPageChange }: { page: number; pageCount: number; disabled?: boolean; onPageChange: (page: number) => void }) {
  const styles = useStyles();
  const id = useId('go-to-page');
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = Number.parseInt(value, 10);
    if (!Number.isFinite(n)) return;
    const target = Math.min(pageCount, Math.max(1, n));
    setValue('');
    if (target !== page) onPageChange(target);
  };
  return (
    <form className={styles.goTo} onSubmit={submit}>
      <label htmlFor={id}>
        <Caption1>Go to page</Caption1>
      </label>
      <Input
        id={id}
        size="small"
        type="number"
        inputMode="numeric"
        min={1}
        max={pageCount}
        className={styles.goToInput}
        value={value}
        disabled={disabled}
        onChange={(_, d) => setValue(d.value)}
      />
      <Button size="small" type="submit" disabled={disabled || value.trim() === ''}>
        Go
      </Button>
    </form>
  );
}
