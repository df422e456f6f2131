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
import { ArrowUpload20Regular, CloudArrowUp24Regular, Delete20Regular, DocumentTable20Regular, Eye20Regular, FolderOpen20Regular } from '@fluentui/react-icons';
import { useId, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { UploadCardHeader, useUploadCardStyles } from '../UploadCardHeader';
import {
  ACCEPT_ATTRIBUTE,
  BATCH_SIZES,
  estimatedRecords,
  formatBytes,
  formatNumber,
  LARGE_FILE_BYTES,
  type UploadMode,
  type UploadOptions,
} from '../uploadClient';
import { useUploadForm, type UploadFormProps } from './useUploadForm';

export type { UploadFormProps };

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

/** SPEC §2 'Data Upload': the drop area, the file list, the options and 'Start Upload'. */
export function UploadForm({ onStart, onPreview, sending, className }: UploadFormProps) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  const form = useUploadForm({ onStart, onPreview, sending });
  const { files, options } = form;
  const first = files[0];
  const large = first != null && first.size > LARGE_FILE_BYTES;

  return (
    <Card className={mergeClasses(shared.card, className)} aria-label="Upload File">
      <UploadCardHeader icon={<ArrowUpload20Regular />} title="Upload File" description="Access Risk Analysis export: .csv, .xlsx or .xls, up to 2GB" />

      <DropZone form={form} sending={sending} />

      {files.length > 0 ? <FileList files={files} sending={sending} onRemove={form.remove} /> : null}

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
      <OptionFields options={options} setOptions={form.setOptions} sending={sending} />

      {options.uploadMode === 'replace' ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Replace existing data</MessageBarTitle>
            When this file has loaded, it replaces all current risk data. Decisions on rows that the new file still contains are kept.
          </MessageBarBody>
        </MessageBar>
      ) : null}

      <div className={styles.actions}>
        <Body1 className={shared.muted}>{first ? `Ready to upload ${first.name}` : 'No file selected'}</Body1>
        <div className={styles.buttons}>
          <Button appearance="secondary" icon={<Eye20Regular />} disabled={!first || sending} onClick={() => void form.preview()}>
            Preview
          </Button>
          <Button
            appearance="primary"
            icon={sending ? <Spinner size="tiny" /> : <ArrowUpload20Regular />}
            disabled={!first || sending}
            onClick={() => void form.start()}
          >
            {sending ? 'Uploading...' : 'Start Upload'}
          </Button>
        </div>
      </div>
    </Card>
  );
}

/** The drop area: a file dropped or chosen with 'Browse Files' (the hidden input). */
function DropZone({ form, sending }: { form: ReturnType<typeof useUploadForm>; sending: boolean }) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  const inputId = useId();
  const hintId = useId();
  const { dragging, setDragging, openPicker } = form;
  return (
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
      onDrop={form.onDrop}
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
      <FileInput id={inputId} inputRef={form.inputRef} onChoose={form.choose} />
    </div>
  );
}

function FileInput({ id, inputRef, onChoose }: { id: string; inputRef: RefObject<HTMLInputElement | null>; onChoose: (files: File[]) => void }) {
  const styles = useStyles();
  return (
    <input
      ref={inputRef}
      id={id}
      className={styles.hiddenInput}
      type="file"
      multiple
      accept={ACCEPT_ATTRIBUTE}
      aria-label="Choose files to upload"
      tabIndex={-1}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => {
        onChoose(Array.from(e.currentTarget.files ?? []));
        // Choosing the same file again must fire a change.
        e.currentTarget.value = '';
      }}
    />
  );
}

/** The files chosen: the first is the one uploaded, the others are marked so. */
function FileList({ files, sending, onRemove }: { files: readonly File[]; sending: boolean; onRemove: (index: number) => void }) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  return (
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
            <Button appearance="subtle" icon={<Delete20Regular />} disabled={sending} onClick={() => onRemove(index)} />
          </Tooltip>
        </li>
      ))}
    </ul>
  );
}

/** SPEC §2's upload options: import mode, batch size, skip duplicates, e-mail on completion. */
function OptionFields({ options, setOptions, sending }: { options: UploadOptions; setOptions: Dispatch<SetStateAction<UploadOptions>>; sending: boolean }) {
  const styles = useStyles();
  return (
    <div className={styles.options}>
      <Field label="Import mode">
        <RadioGroup value={options.uploadMode} onChange={(_, d) => setOptions((o) => ({ ...o, uploadMode: d.value as UploadMode }))} disabled={sending}>
          <Radio value="append" label="Append to existing data" />
          <Radio value="replace" label="Replace existing data" />
        </RadioGroup>
      </Field>
      <div className={styles.checks}>
        <Field label="Batch Size">
          <Select value={String(options.batchSize)} disabled={sending} onChange={(_, d) => setOptions((o) => ({ ...o, batchSize: Number(d.value) }))}>
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
  );
}
