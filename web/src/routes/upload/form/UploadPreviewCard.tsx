import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { ArrowUpload20Regular, Dismiss20Regular, Eye20Regular } from '@fluentui/react-icons';
import { UploadCardHeader, useUploadCardStyles } from '../UploadCardHeader';
import { layoutText, type ColumnChoice, type LayoutChoice, type UploadPreview } from './previewClient';
import { PreviewLayoutPicker } from './PreviewLayoutPicker';

const useStyles = makeStyles({
  scroll: {
    overflowX: 'auto',
    maxWidth: '100%',
  },
  unmapped: {
    backgroundColor: tokens.colorPaletteYellowBackground1,
  },
  select: {
    minWidth: '200px',
  },
  nowrap: {
    whiteSpace: 'nowrap',
  },
  list: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalL,
    maxHeight: '200px',
    overflowY: 'auto',
  },
  body: {
    overflowWrap: 'anywhere',
  },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  buttons: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
  },
  sectionTitle: {
    margin: 0,
  },
});

export type PreviewState = {
  preview: UploadPreview;
  /** Working (a changed mapping being previewed, or the upload being started). */
  busy: boolean;
  error: string | null;
  saveAs: string;
  /** The sheet and header row chosen (null: as found). */
  layout: LayoutChoice | null;
};

type Props = {
  state: PreviewState;
  onMap: (mapping: ColumnChoice[]) => void;
  onLayout: (layout: LayoutChoice) => void;
  onSaveAsChange: (name: string) => void;
  onStart: () => void;
  onCancel: () => void;
  className?: string;
};

/** The mapping the preview shows, every column (what Start Upload sends). */
export function mappingOf(preview: UploadPreview): ColumnChoice[] {
  return preview.columns.filter((c) => c.header).map((c) => ({ header: c.header, field: c.field }));
}

const NOT_LOADED = '';

function MessageList({ title, intent, items }: { title: string; intent: 'warning' | 'error'; items: readonly string[] }) {
  const styles = useStyles();
  if (!items.length) return null;
  return (
    <MessageBar intent={intent} layout="multiline" aria-label={title}>
      <MessageBarBody className={styles.body}>
        <MessageBarTitle>{title}</MessageBarTitle>
        <ul className={styles.list}>
          {items.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      </MessageBarBody>
    </MessageBar>
  );
}

/** Preview before load: the layout, each column's field (editable), the first rows as stored, the problems; Start Upload commits. */
export function UploadPreviewCard({ state, onMap, onLayout, onSaveAsChange, onStart, onCancel, className }: Props) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  const { preview, busy, error, saveAs } = state;
  const labelOf = new Map(preview.mappableFields.map((f) => [f.field, f.label]));

  const choose = (index: number, field: string) => {
    const mapping = mappingOf(preview).map((c, i) => {
      if (i === index) return { ...c, field: field === NOT_LOADED ? null : field };
      // A field goes to one column: the column that had it gives it up.
      return field !== NOT_LOADED && c.field === field ? { ...c, field: null } : c;
    });
    onMap(mapping);
  };

  return (
    <Card className={mergeClasses(shared.card, className)} aria-label="Preview">
      <UploadCardHeader icon={<Eye20Regular />} title={`Preview: ${preview.originalName}`} description={layoutText(preview.layout)} />
      {preview.refusal ? (
        <MessageBar intent="error" layout="multiline" aria-label="Cannot be loaded">
          <MessageBarBody className={styles.body}>
            <MessageBarTitle>Cannot be loaded as mapped</MessageBarTitle>
            {preview.refusal}
          </MessageBarBody>
        </MessageBar>
      ) : null}
      {error ? (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody className={styles.body}>{error}</MessageBarBody>
        </MessageBar>
      ) : null}

      <PreviewLayoutPicker key={`${preview.layout.sheet ?? ''}:${preview.layout.headerRow}`} layout={preview.layout} busy={busy} onLayout={onLayout} />

      <Subtitle2 as="h3" className={styles.sectionTitle}>
        Column mapping
      </Subtitle2>
      <div className={styles.scroll}>
        <Table size="small" aria-label="Column mapping">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Source column</TableHeaderCell>
              <TableHeaderCell>Loads into</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.columns.map((c, i) => (
              <TableRow key={`${i}-${c.header}`} className={c.field ? undefined : styles.unmapped}>
                <TableCell>
                  <Body1>{c.header || '(no header)'}</Body1>{' '}
                  {c.field ? null : (
                    <Badge appearance="tint" color="warning">
                      Not loaded
                    </Badge>
                  )}
                  {c.suggestion ? <Caption1 className={shared.muted}> Looks like {labelOf.get(c.suggestion) ?? c.suggestion}</Caption1> : null}
                </TableCell>
                <TableCell>
                  <Select
                    className={styles.select}
                    aria-label={`Field for column ${c.header}`}
                    value={c.field ?? NOT_LOADED}
                    disabled={busy || !c.header}
                    onChange={(_, d) => choose(i, d.value)}
                  >
                    <option value={NOT_LOADED}>Not loaded</option>
                    {preview.mappableFields.map((f) => (
                      <option key={f.field} value={f.field}>
                        {f.label}
                      </option>
                    ))}
                  </Select>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>

      <Subtitle2 as="h3" className={styles.sectionTitle}>
        First rows as they will be stored
      </Subtitle2>
      <div className={styles.scroll}>
        <Table size="small" aria-label="First rows">
          <TableHeader>
            <TableRow>
              <TableHeaderCell className={styles.nowrap}>Row</TableHeaderCell>
              {preview.fields.map((f) => (
                <TableHeaderCell key={f} className={styles.nowrap}>
                  {labelOf.get(f) ?? f}
                </TableHeaderCell>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.rows.map((r) => (
              <TableRow key={r.row}>
                <TableCell>{r.row}</TableCell>
                {r.values.map((v, i) => (
                  <TableCell key={i} className={styles.nowrap}>
                    {v ?? '—'}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>

      <MessageList title="Problems in the first rows" intent="warning" items={preview.problems} />
      <MessageList title="Columns not loaded" intent="warning" items={preview.warnings} />

      <div className={styles.actions}>
        <Field label="Save this mapping as a profile (optional)" hint="Later files with these columns are then mapped the same way.">
          <Input value={saveAs} disabled={busy} maxLength={100} onChange={(_, d) => onSaveAsChange(d.value)} />
        </Field>
        <div className={styles.buttons}>
          <Button appearance="secondary" icon={<Dismiss20Regular />} disabled={busy} onClick={onCancel}>
            Cancel
          </Button>
          <Button
            appearance="primary"
            icon={busy ? <Spinner size="tiny" /> : <ArrowUpload20Regular />}
            disabled={busy || preview.refusal != null}
            onClick={onStart}
          >
            Start Upload
          </Button>
        </div>
      </div>
    </Card>
  );
}
