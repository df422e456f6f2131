import {
  Badge,
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
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
import { ArrowClockwise16Regular, ArrowRight12Regular } from '@fluentui/react-icons';
import { graphql, useFragment } from 'react-relay';
import type { UploadDetailsDialog_upload$data, UploadDetailsDialog_upload$key } from '../../../__generated__/UploadDetailsDialog_upload.graphql';
import { fullDateTime } from '../../../components/format/dates';
import { formatBytes, formatDuration, formatNumber, modeLabel, type UploadMode } from '../uploadClient';
import { isQueued, StatusBadge, uploaderName, useRetryUpload, type RetriedUpload } from './UploadHistoryRow';
import { UploadWarnings } from './UploadWarnings';
import { Fragment } from 'react';

type Layout = NonNullable<UploadDetailsDialog_upload$data['sourceLayout']>;

/** What was found in the file: format, sheet, header row, encoding, delimiter, decimal mark. */
function layoutFacts(l: Layout): [string, string][] {
  const facts: [string, string][] = [['Format', l.format]];
  if (l.sheet != null) facts.push(['Sheet', `${l.sheet || '(unnamed)'}${l.sheets.length > 1 ? ` (of ${l.sheets.length}: ${l.sheets.join(', ')})` : ''}`]);
  facts.push(['Header row', l.headerRow > 1 ? `Row ${l.headerRow} (the rows above it were skipped)` : `Row ${l.headerRow}`]);
  if (l.encoding) facts.push(['Encoding', l.encoding]);
  if (l.delimiter) facts.push(['Delimiter', l.delimiter.charAt(0).toUpperCase() + l.delimiter.slice(1)]);
  facts.push(['Decimal separator', l.decimalSeparator === ',' ? 'Comma' : 'Point']);
  if (l.profile) facts.push(['Mapping profile', l.profile]);
  return facts;
}

const useStyles = makeStyles({
  surface: {
    maxWidth: '760px',
    width: 'calc(100vw - 32px)',
  },
  content: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalL,
    '& > *': {
      flexShrink: 0,
    },
  },
  title: {
    overflowWrap: 'anywhere',
  },
  summary: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXS,
    color: tokens.colorNeutralForeground3,
  },
  counts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalS,
    margin: 0,
  },
  count: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    minWidth: 0,
  },
  label: {
    margin: 0,
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
  },
  value: {
    margin: 0,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
    fontVariantNumeric: 'tabular-nums',
    color: tokens.colorNeutralForeground1,
    overflowWrap: 'anywhere',
  },
  section: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
  },
  sectionTitle: {
    margin: 0,
  },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'minmax(140px, max-content) 1fr',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    '@media (max-width: 480px)': {
      gridTemplateColumns: '1fr',
    },
  },
  factLabel: {
    color: tokens.colorNeutralForeground3,
  },
  factValue: {
    margin: 0,
    color: tokens.colorNeutralForeground1,
    overflowWrap: 'anywhere',
  },
  mappingScroller: {
    maxHeight: '280px',
    overflowY: 'auto',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  mappingTable: {
    tableLayout: 'fixed',
  },
  arrowCell: {
    width: '40px',
    color: tokens.colorNeutralForeground3,
  },
  field: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
  },
  tags: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalXS,
  },
  muted: {
    color: tokens.colorNeutralForeground3,
  },
  errorText: {
    overflowWrap: 'anywhere',
  },
});

function Count({ label, value }: { label: string; value: string }) {
  const styles = useStyles();
  return (
    <div className={styles.count}>
      <dt className={styles.label}>{label}</dt>
      <dd className={styles.value}>{value}</dd>
    </div>
  );
}

export type UploadDetailsDialogProps = {
  upload: UploadDetailsDialog_upload$key;
  onClose: () => void;
  onRetried: (upload: RetriedUpload) => void;
};

/** 'View Details' on an upload (ARCHITECTURE 'Beyond the spec'): counts, options, column mapping, error. */
export function UploadDetailsDialog({ upload, onClose, onRetried }: UploadDetailsDialogProps) {
  const u = useFragment(
    graphql`
      fragment UploadDetailsDialog_upload on DataUpload {
        id
        originalName
        sizeBytes
        status
        mode
        skipDuplicates
        batchSize
        emailNotification
        recordCount
        rowsProcessed
        bytesProcessed
        duplicatesSkipped
        errorMessage
        columnMapping {
          header
          field
        }
        unknownColumns
        warnings
        sourceLayout {
          format
          sheet
          sheets
          headerRow
          encoding
          delimiter
          decimalSeparator
          profile
        }
        live
        createdAt
        startedAt
        completedAt
        uploadedBy {
          firstName
          lastName
          email
        }
      }
    `,
    upload,
  );
  const styles = useStyles();
  const [retry, retrying] = useRetryUpload((r) => {
    onRetried(r);
    onClose();
  });

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface className={styles.surface} aria-label="Upload Details">
        <DialogBody>
          <DialogTitle className={styles.title}>Upload Details</DialogTitle>
          {/* Scrollable regions take focus, so a keyboard can scroll them (WCAG 2.1.1, axe scrollable-region-focusable). */}
          <DialogContent className={styles.content} tabIndex={0} role="region" aria-label="Upload details">
            <div className={styles.summary}>
              <Body1>
                <strong>{u.originalName}</strong>
              </Body1>
              <StatusBadge status={u.status} warnings={u.warnings.length} queued={isQueued(u)} />
              {u.live ? (
                <Badge appearance="outline" color="brand">
                  Current data
                </Badge>
              ) : null}
            </div>

            {u.status === 'FAILED' ? (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody className={styles.errorText}>
                  <MessageBarTitle>Error</MessageBarTitle>
                  {u.errorMessage || 'File processing failed'}
                </MessageBarBody>
              </MessageBar>
            ) : null}

            {u.status === 'COMPLETED' ? <UploadWarnings warnings={u.warnings} /> : null}

            <dl className={styles.counts} aria-label="Counts">
              <Count label="Records imported" value={formatNumber(u.recordCount)} />
              <Count label="Rows processed" value={formatNumber(u.rowsProcessed)} />
              <Count label="Duplicates skipped" value={formatNumber(u.duplicatesSkipped)} />
              <Count label="File size" value={formatBytes(u.sizeBytes)} />
            </dl>

            <OptionsSection u={u} />

            {u.sourceLayout ? <LayoutSection layout={u.sourceLayout} /> : null}

            <MappingSection u={u} />
          </DialogContent>
          <DialogActions>
            {u.status === 'FAILED' ? (
              <Button
                appearance="primary"
                icon={retrying ? <Spinner size="tiny" /> : <ArrowClockwise16Regular />}
                disabled={retrying}
                onClick={() => retry({ globalId: u.id, name: u.originalName, size: u.sizeBytes, mode: u.mode.toLowerCase() as UploadMode })}
              >
                Retry
              </Button>
            ) : null}
            <Button appearance="secondary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

type Upload = UploadDetailsDialog_upload$data;

/** The options the upload was sent with, who sent it, and when it ran. */
function OptionsSection({ u }: { u: Upload }) {
  const styles = useStyles();
  const duration = u.startedAt && u.completedAt ? formatDuration(new Date(u.completedAt).getTime() - new Date(u.startedAt).getTime()) : null;
  return (
    <section className={styles.section} aria-label="Options">
      <Subtitle2 as="h3" className={styles.sectionTitle}>
        Options
      </Subtitle2>
      <dl className={styles.facts}>
        <dt className={styles.factLabel}>Mode</dt>
        <dd className={styles.factValue}>{modeLabel(u.mode.toLowerCase() as UploadMode)}</dd>
        <dt className={styles.factLabel}>Skip duplicate records</dt>
        <dd className={styles.factValue}>{u.skipDuplicates ? 'Yes' : 'No'}</dd>
        <dt className={styles.factLabel}>Batch Size</dt>
        <dd className={styles.factValue}>{formatNumber(u.batchSize)} records</dd>
        <dt className={styles.factLabel}>Email notification</dt>
        <dd className={styles.factValue}>{u.emailNotification ? 'Yes' : 'No'}</dd>
        <dt className={styles.factLabel}>Uploaded by</dt>
        <dd className={styles.factValue}>
          {uploaderName(u.uploadedBy)}
          {u.uploadedBy ? ` (${u.uploadedBy.email})` : ''}
        </dd>
        <dt className={styles.factLabel}>Uploaded</dt>
        <dd className={styles.factValue}>{fullDateTime(u.createdAt)}</dd>
        {u.completedAt ? (
          <>
            <dt className={styles.factLabel}>Finished</dt>
            <dd className={styles.factValue}>
              {fullDateTime(u.completedAt)}
              {duration ? ` (${duration})` : ''}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function LayoutSection({ layout }: { layout: Layout }) {
  const styles = useStyles();
  return (
    <section className={styles.section} aria-label="File layout">
      <Subtitle2 as="h3" className={styles.sectionTitle}>
        File Layout
      </Subtitle2>
      <dl className={styles.facts}>
        {layoutFacts(layout).map(([label, value]) => (
          <Fragment key={label}>
            <dt className={styles.factLabel}>{label}</dt>
            <dd className={styles.factValue}>{value}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

/** The columns read and the field each loaded into, then the columns no field matched. */
function MappingSection({ u }: { u: Upload }) {
  const styles = useStyles();
  return (
    <>
      <section className={styles.section} aria-label="Column mapping">
        <Subtitle2 as="h3" className={styles.sectionTitle}>
          Column Mapping
        </Subtitle2>
        {u.columnMapping.length > 0 ? (
          <div className={styles.mappingScroller} tabIndex={0} role="region" aria-label="Column mapping, scrollable">
            <Table size="small" className={styles.mappingTable} aria-label="Column mapping">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Column in file</TableHeaderCell>
                  <TableHeaderCell className={styles.arrowCell} aria-hidden />
                  <TableHeaderCell>Field</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {u.columnMapping.map((m) => (
                  <TableRow key={m.header}>
                    <TableCell>{m.header}</TableCell>
                    <TableCell className={styles.arrowCell} aria-hidden>
                      <ArrowRight12Regular />
                    </TableCell>
                    <TableCell>
                      <span className={styles.field}>{m.field}</span>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        ) : (
          <Caption1 className={styles.muted}>
            {u.status === 'PROCESSING' ? 'The columns are mapped when processing starts.' : 'No columns were mapped.'}
          </Caption1>
        )}
      </section>

      <section className={styles.section} aria-label="Unknown columns">
        <Subtitle2 as="h3" className={styles.sectionTitle}>
          Unknown Columns
        </Subtitle2>
        {u.unknownColumns.length > 0 ? (
          <div className={styles.tags}>
            {u.unknownColumns.map((c) => (
              <Badge key={c} appearance="tint" color="warning">
                {c}
              </Badge>
            ))}
          </div>
        ) : (
          <Caption1 className={styles.muted}>{u.columnMapping.length > 0 ? 'None: every column was recognised.' : 'No columns were read.'}</Caption1>
        )}
      </section>
    </>
  );
}
