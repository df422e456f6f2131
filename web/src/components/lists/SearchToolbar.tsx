import { Input, makeStyles, mergeClasses, ProgressBar, tokens } from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  toolbar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalL,
  },
  search: { flexGrow: 1, minWidth: '220px', maxWidth: '420px' },
  progress: { height: '2px' },
  idle: { visibility: 'hidden' },
});

export type SearchToolbarProps = {
  value: string;
  onSearch: (value: string) => void;
  placeholder: string;
  /** The search box's accessible name. */
  label: string;
  /** Filters and actions after the search box. */
  children?: ReactNode;
  className?: string;
  /** The search box's class (another maximum width). */
  searchClassName?: string;
};

/** The row above a list: a search box, then the list's filters and actions (a `search` landmark). */
export function SearchToolbar({ value, onSearch, placeholder, label, children, className, searchClassName }: SearchToolbarProps) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.toolbar, className)} role="search">
      <Input
        className={mergeClasses(styles.search, searchClassName)}
        contentBefore={<Search20Regular />}
        placeholder={placeholder}
        aria-label={label}
        value={value}
        onChange={(_, d) => onSearch(d.value)}
      />
      {children}
    </div>
  );
}

/** A thin bar under a toolbar, moving while the list below reloads; it keeps its room when idle. */
export function LoadingBar({ active, label }: { active: boolean; label: string }) {
  const styles = useStyles();
  return <ProgressBar className={mergeClasses(styles.progress, !active && styles.idle)} aria-label={label} />;
}
