import { makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { Suspense } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import type { UploadRouteQuery } from '../../__generated__/UploadRouteQuery.graphql';
import { AdminOnly } from '../../shell/AccessGate';
import { PageHeader } from '../../components/layout/PageHeader';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import type { UploadMode } from './uploadClient';
import { UploadHistory, type CheckingFor } from './history/UploadHistory';
import type { UploadPrepared } from './uploadLoader';
import type { RetriedUpload } from './history/UploadHistoryRow';
import { UploadForm } from './form/UploadForm';
import { UploadStatusCard } from './status/UploadStatusCard';
import { UploadPreviewCard } from './form/UploadPreviewCard';
import { useTrackedUpload, useUploadPreview } from './useUploadScreen';

const query = graphql`
  query UploadRouteQuery($count: Int!) {
    ...UploadHistory_query @arguments(count: $count)
  }
`;

const useStyles = makeStyles({
  layout: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)',
    alignItems: 'start',
    gap: tokens.spacingHorizontalXL,
    marginBottom: tokens.spacingVerticalXL,
    '@media (max-width: 1100px)': {
      gridTemplateColumns: 'minmax(0, 1fr)',
    },
  },
  preview: {
    marginBottom: tokens.spacingVerticalXL,
  },
  loading: {
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
  },
});

/** SPEC §2, 'Data Upload' (administrators only). */
export default function UploadRoute() {
  return (
    <AdminOnly>
      <UploadScreen />
    </AdminOnly>
  );
}

function UploadScreen() {
  const styles = useStyles();
  const prepared = useLoaderData() as UploadPrepared | null;
  const { queryRef } = usePreparedQuery<UploadRouteQuery>(query, prepared?.query);
  const { tracked, setTracked, update, refreshSignal, refreshHistory, start, onFound, onRetried, cancel } = useTrackedUpload();
  const { preview, setPreview, previewing, openPreview, remap, relayout, startPreview } = useUploadPreview(setTracked, refreshHistory);

  const checkingFor: CheckingFor | null = tracked?.phase === 'checking' ? { key: tracked.key, name: tracked.name, since: tracked.sendStartedAt } : null;
  const sending = tracked?.phase === 'sending' || tracked?.phase === 'waiting';
  const loading = <Spinner className={styles.loading} label="Loading upload history..." />;

  return (
    <>
      <PageHeader title="Data Upload" subtitle="Upload Access Risk Analysis exports and follow their processing." />
      <div className={styles.layout}>
        <UploadForm onStart={start} onPreview={openPreview} sending={sending || previewing || preview != null} />
        <UploadStatusCard tracked={tracked} onUpdate={update} onCancel={cancel} onDismiss={() => setTracked(null)} />
      </div>
      {preview ? (
        <UploadPreviewCard
          className={styles.preview}
          state={preview}
          onMap={(m) => void remap(m)}
          onLayout={(layout) => void relayout(layout)}
          onSaveAsChange={(saveAs) => setPreview((p) => (p ? { ...p, saveAs } : p))}
          onStart={() => void startPreview()}
          onCancel={() => setPreview(null)}
        />
      ) : null}
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <LoadedHistory queryRef={queryRef} refreshSignal={refreshSignal} checkingFor={checkingFor} onFound={onFound} onRetried={onRetried} />
        </Suspense>
      )}
    </>
  );
}

function LoadedHistory({
  queryRef,
  ...rest
}: {
  queryRef: PreloadedQuery<UploadRouteQuery>;
  refreshSignal: number;
  checkingFor: CheckingFor | null;
  onFound: (key: number, found: { globalId: string; status: string; mode: UploadMode; size: number }) => void;
  onRetried: (upload: RetriedUpload) => void;
}) {
  const data = usePreloadedQuery<UploadRouteQuery>(query, queryRef);
  return <UploadHistory query={data} {...rest} />;
}
