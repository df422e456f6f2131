import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowSync20Regular, CheckmarkCircle20Filled, CloudArrowUp24Regular, DismissCircle20Filled, DocumentTable20Regular } from '@fluentui/react-icons';
import type { TrackedUpload } from './trackedUpload';
import { TrackProcessing, useNow } from './TrackProcessing';
import { UploadCardHeader, useUploadCardStyles } from '../UploadCardHeader';
import { estimatedRecords, formatBytes, formatDuration, formatNumber, modeLabel, reportsBytes } from '../uploadClient';
import { UploadWarnings } from '../history/UploadWarnings';

const useStyles = makeStyles({
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    textAlign: 'center',
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
    color: tokens.colorNeutralForeground3,
  },
  emptyIcon: {
    fontSize: '40px',
    color: tokens.colorNeutralForeground4,
  },
  file: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    minWidth: 0,
  },
  fileIcon: {
    flexShrink: 0,
    color: tokens.colorBrandForeground1,
  },
  fileText: {
    display: 'flex',
    flexDirection: 'column',
    minWidth: 0,
  },
  fileName: {
    fontWeight: tokens.fontWeightSemibold,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  progress: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
  },
  progressLine: {
    display: 'flex',
    alignItems: 'baseline',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalM,
  },
  phase: {
    display: 'inline-flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground2,
  },
  percent: {
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
    fontVariantNumeric: 'tabular-nums',
  },
  success: { color: tokens.colorPaletteGreenForeground1 },
  danger: { color: tokens.colorPaletteRedForeground1 },
  stats: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalM,
    margin: 0,
  },
  stat: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    minWidth: 0,
  },
  statLabel: {
    margin: 0,
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
  },
  statValue: {
    margin: 0,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
    fontVariantNumeric: 'tabular-nums',
    color: tokens.colorNeutralForeground1,
    overflowWrap: 'anywhere',
  },
  footer: {
    display: 'flex',
    justifyContent: 'flex-end',
    columnGap: tokens.spacingHorizontalS,
  },
  errorText: {
    overflowWrap: 'anywhere',
  },
});

export type UploadStatusCardProps = {
  tracked: TrackedUpload | null;
  onUpdate: (update: (t: TrackedUpload) => TrackedUpload) => void;
  onCancel: () => void;
  onDismiss: () => void;
  className?: string;
};

type View = {
  label: string;
  /** 0-100, or undefined for an indeterminate bar. */
  percent: number | undefined;
  approximate: boolean;
  color: 'brand' | 'success' | 'error';
};

function viewOf(t: TrackedUpload): View {
  switch (t.phase) {
    case 'sending': {
      const total = t.sent?.total || t.size || 1;
      return { label: 'Sending file...', percent: Math.min(100, ((t.sent?.loaded ?? 0) / total) * 100), approximate: false, color: 'brand' };
    }
    case 'waiting':
      return { label: 'Waiting for the server...', percent: undefined, approximate: false, color: 'brand' };
    case 'checking':
      return { label: 'Checking status...', percent: undefined, approximate: false, color: 'brand' };
    case 'processing': {
      if (reportsBytes(t.name) && t.size > 0) {
        return { label: 'Processing...', percent: Math.min(99, (t.bytesProcessed / t.size) * 100), approximate: false, color: 'brand' };
      }
      // A legacy .xls gives no byte position: rows against the estimate, held below 100% until done.
      const estimate = Math.max(1, estimatedRecords(t.size));
      return {
        label: 'Processing...',
        percent: Math.min(95, ((t.rowsProcessed + t.duplicatesSkipped) / estimate) * 100),
        approximate: true,
        color: 'brand',
      };
    }
    case 'completed':
      return { label: t.warnings.length ? 'Completed with warnings' : 'Completed', percent: 100, approximate: false, color: 'success' };
    case 'failed':
      return { label: 'Failed', percent: undefined, approximate: false, color: 'error' };
  }
}

const PHASE_BADGE: Record<TrackedUpload['phase'], { text: string; color: 'brand' | 'informative' | 'success' | 'danger' | 'warning' }> = {
  sending: { text: 'Uploading', color: 'brand' },
  waiting: { text: 'Uploading', color: 'brand' },
  processing: { text: 'Processing', color: 'informative' },
  completed: { text: 'Completed', color: 'success' },
  failed: { text: 'Failed', color: 'danger' },
  checking: { text: 'Checking', color: 'warning' },
};

function Stat({ label, value }: { label: string; value: string }) {
  const styles = useStyles();
  return (
    <div className={styles.stat}>
      <dt className={styles.statLabel}>{label}</dt>
      <dd className={styles.statValue}>{value}</dd>
    </div>
  );
}

/** The elapsed time, the rows per second and, for a file read by bytes, the time left. */
function timingOf(t: TrackedUpload, now: number) {
  const end = t.finishedAt ?? now;
  const since = t.processingSince;
  const elapsedMs = since != null ? end - since : 0;
  const rate = since != null && elapsedMs >= 1000 && t.rowsProcessed > 0 ? t.rowsProcessed / (elapsedMs / 1000) : null;
  let remaining: string | null = null;
  if (t.phase === 'processing' && reportsBytes(t.name) && since != null && t.bytesProcessed > 0 && elapsedMs > 2000) {
    const bytesPerMs = t.bytesProcessed / elapsedMs;
    remaining = formatDuration((t.size - t.bytesProcessed) / bytesPerMs);
  }
  return { since, elapsedMs, rate, remaining };
}

type Timing = ReturnType<typeof timingOf>;

const isSettled = (t: TrackedUpload) => t.phase === 'completed' || t.phase === 'failed';

/** SPEC §2 'Data Upload': the status card, with determinate progress fed live. */
export function UploadStatusCard({ tracked, onUpdate, onCancel, onDismiss, className }: UploadStatusCardProps) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  const active = tracked != null && !isSettled(tracked);
  const now = useNow(active);

  const header = (
    <UploadCardHeader
      icon={<ArrowSync20Regular />}
      title="Upload Status"
      description="Progress of the file being uploaded and processed"
      action={tracked ? <PhaseBadge tracked={tracked} /> : undefined}
    />
  );

  if (tracked == null) {
    return (
      <Card className={mergeClasses(shared.card, className)} aria-label="Upload Status">
        {header}
        <div className={styles.empty}>
          <CloudArrowUp24Regular className={styles.emptyIcon} aria-hidden />
          <Body1>No upload in progress</Body1>
          <Caption1>Choose a file and select Start Upload; its progress appears here.</Caption1>
        </div>
      </Card>
    );
  }

  const timing = timingOf(tracked, now);
  return (
    <Card className={mergeClasses(shared.card, className)} aria-label="Upload Status">
      {header}
      <FileLine tracked={tracked} />
      <Progress tracked={tracked} timing={timing} />
      {tracked.phase === 'processing' || isSettled(tracked) ? <Stats tracked={tracked} rate={timing.rate} /> : null}

      {tracked.phase === 'completed' ? <UploadWarnings warnings={tracked.warnings} /> : null}
      {tracked.phase === 'failed' ? (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody className={styles.errorText}>
            <MessageBarTitle>Upload Failed</MessageBarTitle>
            {tracked.errorMessage || 'File processing failed'}
          </MessageBarBody>
        </MessageBar>
      ) : null}

      {tracked.phase === 'processing' && tracked.uploadId && tracked.globalId ? (
        <TrackProcessing trackedKey={tracked.key} uploadId={tracked.uploadId} globalId={tracked.globalId} onUpdate={onUpdate} />
      ) : null}

      {tracked.phase === 'sending' ? (
        <div className={styles.footer}>
          <Button appearance="secondary" onClick={onCancel}>
            Cancel Upload
          </Button>
        </div>
      ) : null}
      {!active || tracked.phase === 'checking' ? (
        <div className={styles.footer}>
          <Button appearance="subtle" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      ) : null}
    </Card>
  );
}

function PhaseBadge({ tracked }: { tracked: TrackedUpload }) {
  if (tracked.phase === 'completed' && tracked.warnings.length) {
    return (
      <Badge appearance="tint" color="warning">
        Completed with warnings
      </Badge>
    );
  }
  return (
    <Badge appearance="tint" color={PHASE_BADGE[tracked.phase].color}>
      {PHASE_BADGE[tracked.phase].text}
    </Badge>
  );
}

function FileLine({ tracked }: { tracked: TrackedUpload }) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  return (
    <div className={styles.file}>
      <DocumentTable20Regular className={styles.fileIcon} aria-hidden />
      <div className={styles.fileText}>
        <Text className={styles.fileName} title={tracked.name}>
          {tracked.name}
        </Text>
        <Caption1 className={shared.muted}>
          {formatBytes(tracked.size)} · {modeLabel(tracked.mode)}
          {tracked.retried ? ' · Retry' : ''}
        </Caption1>
      </div>
    </div>
  );
}

function PhaseIcon({ phase }: { phase: TrackedUpload['phase'] }) {
  const styles = useStyles();
  if (phase === 'completed') return <CheckmarkCircle20Filled className={styles.success} aria-hidden />;
  if (phase === 'failed') return <DismissCircle20Filled className={styles.danger} aria-hidden />;
  return <Spinner size="extra-tiny" aria-hidden />;
}

/** The phase, the bar and its percentage, what was sent, the time taken and left. */
function Progress({ tracked, timing }: { tracked: TrackedUpload; timing: Timing }) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  const view = viewOf(tracked);
  const percentText = view.percent == null ? '' : `${view.approximate ? '≈ ' : ''}${Math.floor(view.percent)}%`;
  const { since, elapsedMs, remaining } = timing;
  return (
    <div className={styles.progress}>
      <div className={styles.progressLine}>
        <span className={styles.phase} aria-live="polite">
          <PhaseIcon phase={tracked.phase} />
          <Body1>{view.label}</Body1>
        </span>
        <Text className={styles.percent} data-testid="upload-percent">
          {percentText}
        </Text>
      </div>
      <ProgressBar aria-label="Upload progress" thickness="large" max={100} value={tracked.phase === 'failed' ? 100 : view.percent} color={view.color} />
      {tracked.phase === 'sending' && tracked.sent ? (
        <Caption1 className={shared.muted}>
          {formatBytes(Math.min(tracked.sent.loaded, tracked.size))} of {formatBytes(tracked.size)} sent
        </Caption1>
      ) : null}
      {since != null && (tracked.phase === 'processing' || isSettled(tracked)) ? (
        <Caption1 className={shared.muted}>
          {tracked.phase === 'processing' ? 'Elapsed' : 'Took'} {formatDuration(elapsedMs)}
          {remaining ? ` · about ${remaining} left` : ''}
        </Caption1>
      ) : null}
      {tracked.phase === 'checking' ? (
        <Caption1 className={shared.muted}>
          The server did not answer in time. The upload history refreshes every 5 seconds and this card picks the file up when it appears there.
        </Caption1>
      ) : null}
    </div>
  );
}

/** Rows processed (records imported once done), rows per second, duplicates skipped, and the data read. */
function Stats({ tracked, rate }: { tracked: TrackedUpload; rate: number | null }) {
  const styles = useStyles();
  const csv = reportsBytes(tracked.name);
  return (
    <dl className={styles.stats}>
      {tracked.phase === 'completed' ? (
        <Stat label="Records imported" value={formatNumber(tracked.recordCount ?? tracked.rowsProcessed)} />
      ) : (
        <Stat label="Rows processed" value={formatNumber(tracked.rowsProcessed)} />
      )}
      <Stat label="Rows per second" value={rate != null ? formatNumber(rate) : '—'} />
      <Stat label="Duplicates skipped" value={formatNumber(tracked.duplicatesSkipped)} />
      {csv ? (
        <Stat
          label="Data processed"
          value={`${formatBytes(tracked.phase === 'completed' ? tracked.size : tracked.bytesProcessed)} of ${formatBytes(tracked.size)}`}
        />
      ) : (
        <Stat label="Estimated records" value={formatNumber(estimatedRecords(tracked.size))} />
      )}
    </dl>
  );
}
