// The Data Upload screen's state: the upload followed in the status card (sent
// from the form, found again after a timeout, retried, or started from the
// preview) with its announcements, and the preview before load.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNotify } from '../../components/forms/toast';
import { followExisting, startSending, uploadIdOf, type TrackedUpload } from './status/trackedUpload';
import { formatNumber, sendUpload, TIMEOUT_NOTICE_BYTES, uploadGlobalId, type SendHandle, type UploadMode, type UploadOptions } from './uploadClient';
import type { RetriedUpload } from './history/UploadHistoryRow';
import { mappingOf, type PreviewState } from './form/UploadPreviewCard';
import { previewFile, previewMapping, startPreviewed, type ColumnChoice, type LayoutChoice } from './form/previewClient';

/** The upload the status card follows, how it is sent, and the history's refresh signal. */
export function useTrackedUpload() {
  const notify = useNotify();
  const [tracked, setTracked] = useState<TrackedUpload | null>(null);
  const [refreshSignal, setRefreshSignal] = useState(0);
  const sendRef = useRef<SendHandle | null>(null);

  // Leaving the page stops a send in progress (the server keeps nothing of it).
  useEffect(() => () => sendRef.current?.cancel(), []);

  const refreshHistory = useCallback(() => setRefreshSignal((n) => n + 1), []);

  const update = useCallback((fn: (t: TrackedUpload) => TrackedUpload) => {
    setTracked((t) => (t ? fn(t) : t));
  }, []);

  // SPEC §8: 'Upload Complete' / 'Upload Failed', once per tracked upload; the history then shows the outcome.
  const announced = useRef<string | null>(null);
  useEffect(() => {
    if (!tracked || (tracked.phase !== 'completed' && tracked.phase !== 'failed')) return;
    const mark = `${tracked.key}:${tracked.phase}`;
    if (announced.current === mark) return;
    announced.current = mark;
    if (tracked.phase === 'completed' && tracked.warnings.length) {
      notify({
        title: 'Upload Completed with Warnings',
        description: `${formatNumber(tracked.recordCount ?? tracked.rowsProcessed)} records imported; ${tracked.warnings.length} warning${tracked.warnings.length === 1 ? '' : 's'}: see the status card`,
        intent: 'warning',
      });
    } else if (tracked.phase === 'completed') {
      notify({
        title: 'Upload Complete',
        description: `File processed successfully, ${formatNumber(tracked.recordCount ?? tracked.rowsProcessed)} records imported`,
        intent: 'success',
      });
    } else {
      notify({ title: 'Upload Failed', description: tracked.errorMessage || 'File processing failed', intent: 'error' });
    }
    refreshHistory();
  }, [notify, refreshHistory, tracked]);

  const start = useCallback(
    async (file: File, options: UploadOptions): Promise<boolean> => {
      const initial = startSending(file, options.uploadMode);
      const key = initial.key;
      const mine = (fn: (t: TrackedUpload) => TrackedUpload | null) => setTracked((t) => (t && t.key === key ? fn(t) : t));
      setTracked(initial);
      const handle = sendUpload(file, options, (sent) =>
        mine((t) => (t.phase === 'sending' || t.phase === 'waiting' ? { ...t, sent, phase: sent.loaded >= sent.total ? 'waiting' : 'sending' } : t)),
      );
      sendRef.current = handle;
      const result = await handle.result;
      if (sendRef.current === handle) sendRef.current = null;

      switch (result.kind) {
        case 'accepted': {
          notify({ title: 'Upload Started', description: 'Your file has been uploaded and queued for processing', intent: 'success' });
          const globalId = uploadGlobalId(result.uploadId);
          mine((t) => ({
            ...t,
            phase: 'processing',
            sent: { loaded: t.size, total: t.size },
            uploadId: result.uploadId,
            globalId,
            processingSince: Date.now(),
          }));
          refreshHistory();
          return true;
        }
        case 'rejected':
          // e.g. 400 for a type the server cannot read (recorded as a failed upload), 413 over 2 GB.
          mine((t) => ({
            ...t,
            phase: 'failed',
            uploadId: result.uploadId ?? null,
            globalId: result.uploadId ? uploadGlobalId(result.uploadId) : null,
            finishedAt: Date.now(),
            errorMessage: result.message,
          }));
          return false;
        case 'network':
          mine((t) => ({ ...t, phase: 'failed', finishedAt: Date.now(), errorMessage: result.message }));
          return false;
        case 'timeout':
          // SPEC §8/§9: no answer within 30 s; the file may still be processing.
          if (file.size > TIMEOUT_NOTICE_BYTES) {
            notify({
              title: 'Upload Timeout',
              description: 'Your file may still be processing. Check the upload history in a few minutes.',
              intent: 'warning',
            });
          } else {
            notify({
              title: 'Upload Status Uncertain',
              description: 'The server did not respond in time. Your file may still be processing; check the upload history.',
              intent: 'warning',
            });
          }
          mine((t) => ({ ...t, phase: 'checking' }));
          refreshHistory();
          return true;
        case 'cancelled':
        case 'unauthenticated':
          mine(() => null);
          return false;
      }
    },
    [notify, refreshHistory],
  );

  const onFound = useCallback((key: number, found: { globalId: string; status: string; mode: UploadMode; size: number }) => {
    setTracked((t) => {
      if (!t || t.key !== key || t.phase !== 'checking') return t;
      return {
        ...t,
        phase: 'processing',
        globalId: found.globalId,
        uploadId: uploadIdOf(found.globalId),
        processingSince: t.processingSince ?? Date.now(),
      };
    });
  }, []);

  const onRetried = useCallback((upload: RetriedUpload) => {
    setTracked(followExisting({ ...upload, retried: true }));
  }, []);

  return { tracked, setTracked, update, refreshSignal, refreshHistory, start, onFound, onRetried, cancel: () => sendRef.current?.cancel() };
}

type OpenPreview = PreviewState & { file: File; options: UploadOptions };

/** Preview before load: the file is kept aside on the server and shown; Start Upload loads it with the mapping shown. */
export function useUploadPreview(follow: (upload: TrackedUpload) => void, refreshHistory: () => void) {
  const notify = useNotify();
  const [preview, setPreview] = useState<OpenPreview | null>(null);
  const [previewing, setPreviewing] = useState(false);

  const openPreview = useCallback(
    async (file: File, options: UploadOptions): Promise<boolean> => {
      setPreviewing(true);
      const result = await previewFile(file);
      setPreviewing(false);
      if (!result.ok) {
        notify({ title: 'Preview Failed', description: result.message, intent: 'error' });
        return false;
      }
      setPreview({ preview: result.value, busy: false, error: null, saveAs: '', layout: null, file, options });
      return true;
    },
    [notify],
  );

  const remap = useCallback(
    async (mapping: ColumnChoice[]) => {
      const current = preview;
      if (!current) return;
      setPreview({ ...current, busy: true, error: null });
      const result = await previewMapping(current.preview.previewId, mapping, current.layout);
      setPreview((p) =>
        p && p.preview.previewId === current.preview.previewId
          ? { ...p, busy: false, ...(result.ok ? { preview: result.value } : { error: result.message }) }
          : p,
      );
    },
    [preview],
  );

  // Another sheet or header row: its columns are new, so they are mapped as found again.
  const relayout = useCallback(
    async (layout: LayoutChoice) => {
      const current = preview;
      if (!current) return;
      setPreview({ ...current, busy: true, error: null });
      const result = await previewMapping(current.preview.previewId, null, layout);
      setPreview((p) =>
        p && p.preview.previewId === current.preview.previewId
          ? { ...p, busy: false, ...(result.ok ? { preview: result.value, layout } : { error: result.message }) }
          : p,
      );
    },
    [preview],
  );

  const startPreview = useCallback(async () => {
    const current = preview;
    if (!current) return;
    setPreview({ ...current, busy: true, error: null });
    const result = await startPreviewed(current.preview.previewId, current.options, mappingOf(current.preview), current.saveAs, current.layout);
    if (!result.ok) {
      setPreview((p) => (p ? { ...p, busy: false, error: result.message } : p));
      return;
    }
    notify({ title: 'Upload Started', description: 'Your file has been uploaded and queued for processing', intent: 'success' });
    setPreview(null);
    follow(
      followExisting({
        name: current.file.name,
        size: current.file.size,
        mode: current.options.uploadMode,
        globalId: uploadGlobalId(result.value.uploadId),
        retried: false,
      }),
    );
    refreshHistory();
  }, [follow, notify, preview, refreshHistory]);

  return { preview, setPreview, previewing, openPreview, remap, relayout, startPreview };
}
