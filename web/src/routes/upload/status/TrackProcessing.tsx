// The status card's clock and its live feed while the server loads the tracked upload.
import { useCallback, useEffect, useState } from 'react';
import { commitLocalUpdate, useRelayEnvironment } from 'react-relay';
import { applySnapshot, type TrackedUpload } from './trackedUpload';
import { fetchUploadStatus, STATUS_POLL_MS, type StatusSnapshot } from '../uploadClient';
import { useUploadProgressLive, writeProgress, type ProgressEvent } from './UploadProgressLive';

/** Ticks once a second while `active`, for elapsed times and rates. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

/**
 * Live progress of the tracked upload while the server loads it: the
 * `uploadProgress` subscription, with GET /api/upload-status every 3 s as the
 * fallback (SPEC §4, §9). Both update the store, so the history row follows.
 */
export function TrackProcessing({
  trackedKey,
  uploadId,
  globalId,
  onUpdate,
}: {
  trackedKey: number;
  uploadId: string;
  globalId: string;
  onUpdate: (update: (t: TrackedUpload) => TrackedUpload) => void;
}) {
  const environment = useRelayEnvironment();
  const apply = useCallback(
    (s: Parameters<typeof applySnapshot>[1]) => onUpdate((t) => (t.key === trackedKey ? applySnapshot(t, s) : t)),
    [onUpdate, trackedKey],
  );
  const onEvent = useCallback((e: ProgressEvent) => apply(e), [apply]);
  useUploadProgressLive(globalId, onEvent);

  useEffect(() => {
    const controller = new AbortController();
    const poll = () => {
      fetchUploadStatus(uploadId, controller.signal).then(
        (s: StatusSnapshot) => {
          if (controller.signal.aborted) return;
          commitLocalUpdate(environment, (store) => writeProgress(store, globalId, s));
          apply(s);
        },
        (error: unknown) => {
          // SPEC §8: upload polling errors are only logged.
          if (!controller.signal.aborted) console.warn('Upload status poll failed', error);
        },
      );
    };
    poll();
    const timer = window.setInterval(poll, STATUS_POLL_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, [apply, environment, globalId, uploadId]);
  return null;
}
