import { useState } from 'react';
import { Button, Field, Input, makeStyles, Select, tokens } from '@fluentui/react-components';
import { ArrowSync20Regular } from '@fluentui/react-icons';
import type { LayoutChoice, UploadPreview } from './previewClient';

const useStyles = makeStyles({
  row: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    gap: tokens.spacingHorizontalM,
  },
  sheet: {
    minWidth: '200px',
  },
  number: {
    width: '120px',
  },
});

type Props = {
  layout: UploadPreview['layout'];
  busy: boolean;
  /** Preview again from this sheet (its header row found) or this header row. */
  onLayout: (layout: LayoutChoice) => void;
};

/**
 * Where the header is: the sheet of a workbook and the row holding
 * the column names, as found; the administrator picks another sheet or types
 * another row, and the preview (and then the load) reads the file from there.
 */
export function PreviewLayoutPicker({ layout, busy, onLayout }: Props) {
  const styles = useStyles();
  const [row, setRow] = useState(String(layout.headerRow));
  const n = Number(row);
  const valid = Number.isInteger(n) && n >= 1;
  const sheets = layout.sheets ?? [];
  return (
    <div className={styles.row}>
      {sheets.length > 1 ? (
        <Field label="Sheet">
          <Select className={styles.sheet} value={layout.sheet ?? ''} disabled={busy} onChange={(_, d) => onLayout({ sheet: d.value })}>
            {sheets.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
      ) : null}
      <Field
        label="Header row"
        hint="The row holding the column names; the rows above it are skipped."
        validationMessage={valid ? undefined : 'Enter a row number from 1.'}
      >
        <Input className={styles.number} type="number" min={1} value={row} disabled={busy} onChange={(_, d) => setRow(d.value)} />
      </Field>
      <Button
        appearance="secondary"
        icon={<ArrowSync20Regular />}
        disabled={busy || !valid || n === layout.headerRow}
        onClick={() => onLayout({ ...(layout.sheet !== undefined ? { sheet: layout.sheet } : {}), headerRow: n })}
      >
        Read header from this row
      </Button>
    </div>
  );
}
