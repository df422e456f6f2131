import { makeStyles, tokens } from '@fluentui/react-components';
import { useLayoutEffect, type RefObject } from 'react';

/**
 * On a phone a wide table becomes a list of cards. The
 * table keeps its elements (and its semantics for screen readers); each row
 * becomes a card whose cells stack, each under its column's name (copied from
 * the header by `useCardLabels`). A header cell holding a control (the
 * select-all box) stays; the other header cells are hidden.
 */
export const useCardTableStyles = makeStyles({
  cards: {
    display: 'block',
    minWidth: '0',
    width: '100%',
    '& thead, & tbody': {
      display: 'block',
    },
    '& thead tr': {
      display: 'flex',
      alignItems: 'center',
      borderBottomStyle: 'none',
    },
    '& thead tr > :not(:has(input))': {
      display: 'none',
    },
    '& tbody tr': {
      display: 'flex',
      flexDirection: 'column',
      rowGap: tokens.spacingVerticalXS,
      marginTop: tokens.spacingVerticalS,
      marginBottom: tokens.spacingVerticalS,
      paddingTop: tokens.spacingVerticalS,
      paddingBottom: tokens.spacingVerticalS,
      paddingLeft: tokens.spacingHorizontalS,
      paddingRight: tokens.spacingHorizontalS,
      borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
      borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
      borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
      borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
      borderRadius: tokens.borderRadiusMedium,
      // A page of cards is taller than a phone's screen: the browser styles and lays out only
      // the cards near the viewport (the others keep their last size, or this estimate), so the
      // first page's render does not pay for 25 cards when 4 are seen. They stay in the
      // accessibility tree and in find-in-page.
      contentVisibility: 'auto',
      containIntrinsicSize: 'auto 220px',
    },
    '& tbody td': {
      display: 'flex',
      alignItems: 'center',
      columnGap: tokens.spacingHorizontalS,
      width: 'auto',
      minWidth: '0',
      height: 'auto',
      overflowWrap: 'anywhere',
    },
    '& tbody td[data-label]::before': {
      content: 'attr(data-label)',
      flexShrink: 0,
      width: '7.5rem',
      color: tokens.colorNeutralForeground3,
      fontSize: tokens.fontSizeBase200,
    },
  },
});

/**
 * Gives every body cell of the table the name of its column (`data-label`),
 * which the card form shows before the cell. Runs after each render of the
 * table's owner, so new pages of rows are labelled too.
 */
export function useCardLabels(table: RefObject<HTMLTableElement | null>, enabled: boolean): void {
  useLayoutEffect(() => {
    const el = table.current;
    if (!enabled || !el) return;
    // Header cells may be th or td (a selection cell); one holding a control names no column.
    const names = [...el.querySelectorAll('thead tr > *')].map((th) => (th.querySelector('input') ? '' : (th.textContent ?? '').trim()));
    for (const tr of el.querySelectorAll('tbody tr')) {
      [...tr.children].forEach((td, i) => {
        const name = names[i];
        if (name) td.setAttribute('data-label', name);
        else td.removeAttribute('data-label');
      });
    }
  });
}
