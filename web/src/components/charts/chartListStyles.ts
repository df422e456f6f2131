// A chart with its figures beside it as a list (for reading and assistive
// technology): the chart's box, the list and its rows of name and figure.
// The period preview's conflicts per reviewer and Reviewer Status' progress
// by stage both show their bars this way.
import { makeStyles, tokens } from '@fluentui/react-components';

export const useChartListStyles = makeStyles({
  chart: { minHeight: '40px', minWidth: 0 },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS },
  item: { display: 'flex', justifyContent: 'space-between', columnGap: tokens.spacingHorizontalM, minWidth: 0 },
  /** A row whose figure goes under its name when both do not fit. */
  wrapping: { flexWrap: 'wrap' },
  name: { overflowWrap: 'anywhere', minWidth: 0 },
  figure: { fontVariantNumeric: 'tabular-nums' },
  /** A short figure kept whole on its row (the name gives way). */
  whole: { flexShrink: 0 },
});
