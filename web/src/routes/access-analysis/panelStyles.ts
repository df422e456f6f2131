import { makeStyles, tokens } from '@fluentui/react-components';

/** The layout the Access Analysis panels share: a form card above a list card. */
export const usePanelStyles = makeStyles({
  panel: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, minWidth: 0 },
  card: { padding: tokens.spacingHorizontalL, minWidth: 0 },
  listCard: { padding: 0, rowGap: 0, minWidth: 0 },
  listHeader: { padding: tokens.spacingHorizontalL, paddingBottom: 0 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  form: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 220px), 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'end',
  },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  file: { maxWidth: '100%', minWidth: 0 },
  error: { color: tokens.colorPaletteRedForeground1, overflowWrap: 'anywhere', margin: 0 },
  cell: { overflowWrap: 'anywhere' },
  /** A badge under a cell's first line (a test run). */
  badge: { alignSelf: 'flex-start' },
  /** A cell's two lines (a value, a caption under it), wrapping within the cell. */
  stack: { display: 'flex', flexDirection: 'column', minWidth: 0, overflowWrap: 'anywhere' },
  /** A failed load or run: the badge, its reason under it. */
  failed: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalXS, minWidth: 0 },
  progress: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS, minWidth: '120px' },
});
