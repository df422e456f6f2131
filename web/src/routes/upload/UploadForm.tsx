import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  Checkbox,
  Divider,
  Field,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Radio,
  RadioGroup,
  shorthands,
  Select,
  Spinner,
  Subtitle2,
  Text,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import {
  ArrowUpload20Regular,
  CloudArrowUp24Regular,
  Delete20Regular,
  DocumentTable20Regular,
  Eye20Regular,
  FolderOpen20Regular,
} from '@fluentui/react-icons';
import { useId, useRef, useState, type DragEvent } from 'react';
import { useNotify } from '../../components/forms/toast';
import { UploadCardHeader, useUploadCardStyles } from './UploadCardHeader';
import {
  ACCEPT_ATTRIBUTE,
  BATCH_SIZES,
  DEFAULT_OPTIONS,
  estimatedRecords,
  formatBytes,
  formatNumber,
  LARGE_FILE_BYTES,
  screenFiles,
  type UploadMode,
  type UploadOptions,
} from './uploadClient';

const useStyles = makeStyles({
  dropzone: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    rowGap: tokens.spacingVerticalS,
    textAlign: 'center',
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground2,
    cursor: 'pointer',
    transitionProperty: 'background-color, border-color',
    transitionDuration: tokens.durationFaster,
    ':hover': {
      ...shorthands.borderColor(tokens.colorBrandStroke1),
      backgroundColor: tokens.colorBrandBackground2,
    },
    ':focus-visible': {
      outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
      outlineOffset: '2px',
    },
  },
  dropzoneActive: {
    ...shorthands.borderColor(tokens.colorBrandStroke1),
    backgroundColor: tokens.colorBrandBackground2,
  },
  dropzoneDisabled: {
    cursor: 'default',
    opacity: 0.6,
  },
  dropIcon: {
    fontSize: '40px',
    color: tokens.colorBrandForeground1,
  },
  dropTitle: {
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1,
  },
  hiddenInput: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
  fileList: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
  },
  fileItem: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    minWidth: 0,
  },
  fileItemIgnored: {
    backgroundColor: tokens.colorNeutralBackground3,
  },
  fileIcon: {
    flexShrink: 0,
    color: tokens.colorBrandForeground1,
  },
  fileText: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    minWidth: 0,
  },
  fileName: {
    fontWeight: tokens.fontWeightSemibold,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  fileBadge: {
    flexShrink: 0,
  },
  sectionTitle: {
    margin: 0,
  },
  options: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))',
    columnGap: tokens.spacingHorizontalXL,
    rowGap: tokens.spacingVerticalM,
  },
  checks: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
  },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalS,
  },
  buttons: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
  },
});

export type UploadFormProps = {
  /** Sends the file; resolves true once the server has it (the list is then cleared). */
  onStart: (file: File, options: UploadOptions) => Promise<boolean>;
  /** Sends the file to be previewed (nothing loaded); resolves true once the preview shows (the list is then cleared). */
  onPreview: (file: File, options: UploadOptions) => Promise<boolean>;
  sending: boolean;
  className?: string;
};

function listNames(files: readonly File[]): string {
  const names = files.map((f) => `'${f.name}'`);
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/** SPEC §2 'Data Upload': the drop area, the file list, the options and 'Start Upload'. */
export function UploadForm({ onStart, onPreview, sending, className }: UploadFormProps) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  const notify = useNotify();
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [options, setOptions] = useState<UploadOptions>(DEFAULT_OPTIONS);

  const choose = (chosen: readonly File[]) => {
    if (chosen.length === 0) return;
    const { accepted, wrongType, tooLarge } = screenFiles(chosen);
    // SPEC §5: over 2 GB refused before sending, naming the 2GB limit; only .csv, .xlsx and .xls.
    if (tooLarge.length > 0) {
      notify({
        title: tooLarge.length > 1 ? 'Files Too Large' : 'File Too Large',
        description: `${listNames(tooLarge)} ${tooLarge.length > 1 ? 'exceed' : 'exceeds'} the 2GB limit per file.`,
        intent: 'error',
      });
    } else if (wrongType.length > 0) {
      notify({
        title: 'Unsupported File Type',
        description: `${listNames(wrongType)} cannot be uploaded. Choose a .csv, .xlsx or .xls file.`,
        intent: 'error',
      });
    }
    if (accepted.length > 0) setFiles(accepted);
  };

  const openPicker = () => {
    if (!sending) inputRef.current?.click();
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (sending) return;
    choose(Array.from(event.dataTransfer.files));
  };

  const start = async () => {
    const file = files[0];
    if (!file || sending) return;
    const started = await onStart(file, options);
    if (started) setFiles([]);
  };

  const preview = async () => {
    const file = files[0];
    if (!file || sending) return;
    if (await onPreview(file, options)) setFiles([]);
  };

  const first = files[0];
  const large = first != null && first.size > LARGE_FILE_BYTES;

  return (
    <Card className={mergeClasses(shared.card, className)} aria-label="Upload File">
      <UploadCardHeader
        icon={<ArrowUpload20Regular />}
        title="Upload File"
        description="Access Risk Analysis export: .csv, .xlsx or .xls, up to 2GB"
      />

      <div
        className={mergeClasses(styles.dropzone, dragging && styles.dropzoneActive, sending && styles.dropzoneDisabled)}
        // A group (a drop target the mouse can click), not a button containing
        // the Browse Files button; the keyboard reaches the picker through that button.
        role="group"
        aria-describedby={hintId}
        aria-label="Drag and drop files here or browse"
        onClick={openPicker}
        onDragEnter={(e) => {
          e.preventDefault();
          if (!sending) setDragging(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = sending ? 'none' : 'copy';
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <CloudArrowUp24Regular className={styles.dropIcon} aria-hidden />
        <Text className={styles.dropTitle}>{dragging ? 'Drop the file to add it' : 'Drag and drop your file here'}</Text>
        <Caption1 id={hintId} className={shared.muted}>
          Supported formats: .csv, .xlsx, .xls. If you select several files, only the first is uploaded.
        </Caption1>
        <Button
          appearance="secondary"
          icon={<FolderOpen20Regular />}
          disabled={sending}
          onClick={(e) => {
            e.stopPropagation();
            openPicker();
          }}
        >
          Browse Files
        </Button>
        <input
          ref={inputRef}
          id={inputId}
          className={styles.hiddenInput}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          aria-label="Choose files to upload"
          tabIndex={-1}
          onClick={(e) => e.stopPropagation()}
          onChange={(e) => {
            choose(Array.from(e.currentTarget.files ?? []));
            // Choosing the same file again must fire a change.
            e.currentTarget.value = '';
          }}
        />
      </div>

      {files.length > 0 ? (
        <ul className={styles.fileList} aria-label="Selected files">
          {files.map((file, index) => (
            <li key={`${file.name}-${file.size}-${index}`} className={mergeClasses(styles.fileItem, index > 0 && styles.fileItemIgnored)}>
              <DocumentTable20Regular className={styles.fileIcon} aria-hidden />
              <div className={styles.fileText}>
                <Text className={styles.fileName} title={file.name}>
                  {file.name}
                </Text>
                <Caption1 className={shared.muted}>
                  {formatBytes(file.size)} · ~{formatNumber(estimatedRecords(file.size))} records (estimated)
                </Caption1>
              </div>
              {index === 0 ? (
                files.length > 1 ? (
                  <Badge className={styles.fileBadge} appearance="tint" color="brand">
                    To upload
                  </Badge>
                ) : null
              ) : (
                <Badge className={styles.fileBadge} appearance="outline" color="subtle">
                  Not uploaded
                </Badge>
              )}
              <Tooltip content={`Remove ${file.name}`} relationship="label">
                <Button
                  appearance="subtle"
                  icon={<Delete20Regular />}
                  disabled={sending}
                  onClick={() => setFiles((list) => list.filter((_, i) => i !== index))}
                />
              </Tooltip>
            </li>
          ))}
        </ul>
      ) : null}

      {large ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Large file</MessageBarTitle>
            This file is over 500 MB. The upload may take several minutes; you can follow its progress in the status card.
          </MessageBarBody>
        </MessageBar>
      ) : null}

      <Divider />

      <Subtitle2 as="h3" className={styles.sectionTitle}>
        Upload Options
      </Subtitle2>
      <div className={styles.options}>
        <Field label="Import mode">
          <RadioGroup
            value={options.uploadMode}
            onChange={(_, d) => setOptions((o) => ({ ...o, uploadMode: d.value as UploadMode }))}
            disabled={sending}
          >
            <Radio value="append" label="Append to existing data" />
            <Radio value="replace" label="Replace existing data" />
          </RadioGroup>
        </Field>
        <div className={styles.checks}>
          <Field label="Batch Size">
            <Select
              value={String(options.batchSize)}
              disabled={sending}
              onChange={(_, d) => setOptions((o) => ({ ...o, batchSize: Number(d.value) }))}
            >
              {BATCH_SIZES.map((size) => (
                <option key={size} value={size}>
                  {formatNumber(size)} records
                </option>
              ))}
            </Select>
          </Field>
          <Checkbox
            label="Skip duplicate records"
            checked={options.skipDuplicates}
            disabled={sending}
            onChange={(_, d) => setOptions((o) => ({ ...o, skipDuplicates: d.checked === true }))}
          />
          <Checkbox
            label="Send email notification on completion"
            checked={options.emailNotification}
            disabled={sending}
            onChange={(_, d) => setOptions((o) => ({ ...o, emailNotification: d.checked === true }))}
          />
        </div>
      </div>

      {options.uploadMode === 'replace' ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Replace existing data</MessageBarTitle>
            When this file has loaded, it replaces all current risk data. Decisions on rows that the new file still contains are kept.
          </MessageBarBody>
        </MessageBar>
      ) : null}

      <div className={styles.actions}>
        <Body1 className={shared.muted}>
          {first ? `Ready to upload ${first.name}` : 'No file selected'}
        </Body1>
        <div className={styles.buttons}>
          <Button appearance="secondary" icon={<Eye20Regular />} disabled={!first || sending} onClick={() => void preview()}>
            Preview
          </Button>
          <Button
            appearance="primary"
            icon={sending ? <Spinner size="tiny" /> : <ArrowUpload20Regular />}
            disabled={!first || sending}
            onClick={() => void start()}
          >
            {sending ? 'Uploading...' : 'Start Upload'}
          </Button>
        </div>
      </div>
    </Card>
  );
}
