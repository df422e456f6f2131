// One table of a simulation's result: the user's access items for the risk,
// as loaded or as simulated, what disappears highlighted and marked Removed,
// at most the rows the server sends (the total beside the title).
import {
  Badge,
  Body1,
  makeStyles,
  mergeClasses,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { graphql, useFragment } from 'react-relay';
import type { SimulationAccessTable_items$key } from '../../__generated__/SimulationAccessTable_items.graphql';

const useStyles = makeStyles({
  // A section never grows past its grid column (a grid item is as wide as its content by
  // default, and then lies over the other table): a table wider than the column scrolls here.
  section: { minWidth: 0 },
  scroll: { overflowX: 'auto' },
  // Columns sized by their content (Fluent's fixed layout splits the width evenly): never
  // narrower than a cell's longest word (role and authorization names are long words), so
  // text does not run over the next cell or the other table; past the column's width the
  // table scrolls in `scroll`.
  table: { tableLayout: 'auto' },
  removed: { backgroundColor: tokens.colorPaletteRedBackground1, textDecorationLine: 'line-through' },
  muted: { color: tokens.colorNeutralForeground3 },
  tableTitle: { display: 'block', marginBottom: tokens.spacingVerticalS },
});

export function SimulationAccessTable({ title, items: itemsKey, total }: { title: string; items: SimulationAccessTable_items$key; total: number }) {
  const styles = useStyles();
  const items = useFragment(
    graphql`
      fragment SimulationAccessTable_items on SimulationAccessItem @relay(plural: true) {
        rowId
        roleProfile
        compositeBusinessRole
        function
        ruleId
        authObject
        field
        valueFrom
        valueTo
        removed
      }
    `,
    itemsKey,
  );
  return (
    <section aria-label={title} className={styles.section}>
      <Subtitle2 as="h3" className={styles.tableTitle}>
        {title} ({total})
      </Subtitle2>
      {items.length === 0 ? (
        <Body1 className={styles.muted}>No access items</Body1>
      ) : (
        // Focusable, so the keyboard can scroll a table wider than its column.
        <div className={styles.scroll} tabIndex={0} role="group" aria-label={`${title}, scrollable`}>
          <Table size="small" aria-label={title} className={styles.table}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Role</TableHeaderCell>
                <TableHeaderCell>Function</TableHeaderCell>
                <TableHeaderCell>Rule ID</TableHeaderCell>
                <TableHeaderCell>Auth Object</TableHeaderCell>
                <TableHeaderCell>Value</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((i) => (
                <TableRow key={i.rowId} className={mergeClasses(i.removed && styles.removed)}>
                  <TableCell>
                    {i.compositeBusinessRole || i.roleProfile}
                    {i.compositeBusinessRole ? <span className={styles.muted}> / {i.roleProfile}</span> : null}
                    {i.removed ? (
                      <>
                        {' '}
                        <Badge size="small" color="danger" appearance="tint">
                          Removed
                        </Badge>
                      </>
                    ) : null}
                  </TableCell>
                  <TableCell>{i.function}</TableCell>
                  <TableCell>{i.ruleId}</TableCell>
                  <TableCell>
                    {i.authObject}
                    {i.field ? ` ${i.field}` : ''}
                  </TableCell>
                  <TableCell>{i.valueTo && i.valueTo !== i.valueFrom ? `${i.valueFrom}–${i.valueTo}` : i.valueFrom}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {total > items.length ? (
        <Body1 className={styles.muted}>
          First {items.length} of {total} shown.
        </Body1>
      ) : null}
    </section>
  );
}
