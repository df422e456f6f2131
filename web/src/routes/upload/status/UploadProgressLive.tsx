import { useMemo } from 'react';
import { graphql, useSubscription } from 'react-relay';
import type { GraphQLSubscriptionConfig, RecordSourceProxy } from 'relay-runtime';
import type { UploadProgressLiveSubscription, UploadProgressLiveSubscription$data } from '../../../__generated__/UploadProgressLiveSubscription.graphql';
import type { ProgressUpdate } from '../uploadClient';

const subscription = graphql`
  subscription UploadProgressLiveSubscription($id: ID!) {
    uploadProgress(id: $id) {
      uploadId
      status
      rowsProcessed
      bytesProcessed
      sizeBytes
      duplicatesSkipped
      errorMessage
      warnings
    }
  }
`;

export type ProgressEvent = UploadProgressLiveSubscription$data['uploadProgress'];

/**
 * Writes an upload's progress onto its DataUpload record, so the history row
 * (and its details) follow it live. Progress only moves forward while
 * processing: a late poll never takes a row count back.
 */
export function writeProgress(store: RecordSourceProxy, globalId: string, p: ProgressUpdate): void {
  // REST's poll answers the SPEC's 'processing', the subscription GraphQL's PROCESSING; the store holds GraphQL's.
  const status = p.status.toLowerCase();
  if (status !== 'processing' && status !== 'completed' && status !== 'failed') return;
  const record = store.get(globalId);
  if (record == null) return;
  const previousStatus = record.getValue('status');
  if (previousStatus !== 'PROCESSING' && status === 'processing') {
    // A stale poll answered after the terminal event: keep the terminal state.
    const previousRows = record.getValue('rowsProcessed');
    if (typeof previousRows === 'number' && previousRows >= p.rowsProcessed) return;
  }
  const forward = (field: string, value: number) => {
    const prev = record.getValue(field);
    record.setValue(status === 'processing' && typeof prev === 'number' ? Math.max(prev, value) : value, field);
  };
  record.setValue(status.toUpperCase(), 'status');
  forward('rowsProcessed', p.rowsProcessed);
  if (p.bytesProcessed > 0 || status !== 'processing') forward('bytesProcessed', p.bytesProcessed);
  forward('duplicatesSkipped', p.duplicatesSkipped);
  record.setValue(p.errorMessage ?? null, 'errorMessage');
  if (status === 'completed') record.setValue(p.recordCount ?? p.rowsProcessed, 'recordCount');
  if (status === 'completed' && p.warnings) record.setValue([...p.warnings], 'warnings');
}

/**
 * Subscribes to `uploadProgress` for one upload (by its DataUpload global id)
 * while mounted, keeping the store's record current and handing each event to
 * `onEvent` (optional).
 */
export function useUploadProgressLive(globalId: string, onEvent?: (event: ProgressEvent) => void): void {
  const config = useMemo<GraphQLSubscriptionConfig<UploadProgressLiveSubscription>>(
    () => ({
      subscription,
      variables: { id: globalId },
      updater: (store, data) => {
        const p = data?.uploadProgress;
        if (p) writeProgress(store, globalId, p);
      },
      onNext: (data) => {
        if (data?.uploadProgress && onEvent) onEvent(data.uploadProgress);
      },
      onError: (error) => console.warn('Upload progress subscription failed; the status poll continues', error),
    }),
    [globalId, onEvent],
  );
  useSubscription<UploadProgressLiveSubscription>(config);
}

/** Mounts a live subscription for one upload (for rows that are processing). */
export function UploadProgressLive({ globalId }: { globalId: string }) {
  useUploadProgressLive(globalId);
  return null;
}
