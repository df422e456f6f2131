import { AccordionHeader, AccordionItem, AccordionPanel, Caption1, makeStyles, mergeClasses, Spinner, Text, tokens } from '@fluentui/react-components';
import { useEffect, useTransition, type ReactNode } from 'react';
import { CompositeViewStatusDot } from './CompositeViewStatusDot';

const useStyles = makeStyles({
  item: { borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  itemNested: { ':last-child': { borderBottom: 'none' } },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    width: '100%',
  },
  title: { display: 'flex', flexDirection: 'column', minWidth: '180px', flexGrow: 1 },
  titleNested: { flexBasis: '240px' },
  name: { fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  counts: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalS, paddingRight: tokens.spacingHorizontalS },
  panel: { paddingBottom: tokens.spacingVerticalM },
  panelNested: { paddingBottom: tokens.spacingVerticalS },
  loading: { padding: tokens.spacingVerticalL },
  headerRow: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  headerMain: { flexGrow: 1, flexBasis: '260px', minWidth: 0 },
  actions: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    paddingLeft: tokens.spacingHorizontalXL,
    paddingRight: tokens.spacingHorizontalM,
  },
  loadingNested: { padding: tokens.spacingVerticalM },
});

/** A refetchable fragment's refetch, called with its `expanded` argument. */
type ExpandRefetch = (variables: { expanded: boolean }, options: { fetchPolicy: 'store-or-network' }) => unknown;

export type CompositeViewItemProps = {
  /** The accordion value (the node's id). */
  value: string;
  /** The header button's accessible name. */
  label: string;
  /** The bold first line and the muted line under it. */
  title: ReactNode;
  subtitle: ReactNode;
  /** Counts and badges, before the status dot. */
  counts: ReactNode;
  decided: boolean;
  open: boolean;
  /** What the item shows expanded; null until it is loaded. */
  content: ReactNode | null;
  /** Loads the content: the fragment's refetch with `expanded: true`, the first time the item is opened. */
  refetch: ExpandRefetch;
  loadingLabel: string;
  /** Buttons beside the header (outside its toggle button), e.g. the user's 'Risk Analysis'. */
  actions?: ReactNode;
  /** A level inside another one's panel (a user's risk groups): a smaller header, the last item without its border. */
  nested?: boolean;
};

/**
 * One expandable row of the composite view (a user, or a user's risk group):
 * a header with a title, counts and the status dot; expanded, the next level,
 * loaded the first time it is opened.
 */
export function CompositeViewItem({
  value,
  label,
  title,
  subtitle,
  counts,
  decided,
  open,
  content,
  refetch,
  loadingLabel,
  actions,
  nested = false,
}: CompositeViewItemProps) {
  const styles = useStyles();
  const [loading, startTransition] = useTransition();
  const loaded = content != null;

  useEffect(() => {
    if (open && !loaded && !loading) {
      startTransition(() => {
        refetch({ expanded: true }, { fetchPolicy: 'store-or-network' });
      });
    }
  }, [open, loaded, loading, refetch]);

  const header = (
    // Headings in order: a user is an h2, their risks h3, a role's details h4.
    <AccordionHeader as={nested ? 'h3' : 'h2'} size={nested ? 'medium' : 'large'} button={{ 'aria-label': label }}>
      <span className={styles.header}>
        <span className={mergeClasses(styles.title, nested && styles.titleNested)}>
          <Text className={styles.name}>{title}</Text>
          <Caption1 className={styles.muted}>{subtitle}</Caption1>
        </span>
        <span className={styles.counts}>
          {counts}
          <CompositeViewStatusDot decided={decided} />
        </span>
      </span>
    </AccordionHeader>
  );

  return (
    <AccordionItem value={value} className={mergeClasses(styles.item, nested && styles.itemNested)}>
      {actions ? (
        <div className={styles.headerRow}>
          <div className={styles.headerMain}>{header}</div>
          <div className={styles.actions}>{actions}</div>
        </div>
      ) : (
        header
      )}
      <AccordionPanel className={nested ? styles.panelNested : styles.panel}>
        {!open ? null : loaded ? content : <Spinner className={nested ? styles.loadingNested : styles.loading} size="small" label={loadingLabel} />}
      </AccordionPanel>
    </AccordionItem>
  );
}

/** A muted count in an item's header ('12 total', '3/5 decided'). */
export function CompositeViewCount({ children }: { children: ReactNode }) {
  const styles = useStyles();
  return <Caption1 className={styles.muted}>{children}</Caption1>;
}
