import { makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { Suspense } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import type { AdminSettingsRouteQuery } from '../../__generated__/AdminSettingsRouteQuery.graphql';
import { PageHeader } from '../../components/layout/PageHeader';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { AdminOnly } from '../../shell/AccessGate';
import type { AdminSettingsPrepared } from './adminSettingsLoader';
import { AiInfoCard } from './AiInfoCard';
import { AiUsageCard } from './AiUsageCard';
import { AiBulkCard } from './AiBulkCard';
import { OpenAiKeyCard } from './OpenAiKeyCard';
import { PurgeDataCard } from './PurgeDataCard';
import { ReviewRulesCard } from './ReviewRulesCard';
import { ExpiredMitigationsCard } from './ExpiredMitigationsCard';
import { OpenQuestionsCard } from './OpenQuestionsCard';
import { FallbackReviewersCard } from './FallbackReviewersCard';

const query = graphql`
  query AdminSettingsRouteQuery {
    openAiKeyStatus {
      hasValue
      updatedAt
    }
    aiUsageStats {
      ...AiUsageCard_stats
    }
    aiBulkCategorization {
      ...AiBulkCard_state
    }
    reviewRules {
      ...ReviewRulesCard_rules
    }
    expiredMitigations {
      ...ExpiredMitigationsCard_list
    }
    ...OpenQuestionsCard_query
    ...FallbackReviewersCard_query
  }
`;

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 420px), 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
  },
  loading: { paddingTop: tokens.spacingVerticalXXL },
});

/** SPEC §2 'Admin Settings': the AI key, AI usage, the review rules, expired mitigations and open questions, Data Management (purge) and the AI information card. */
export default function AdminSettingsRoute() {
  return (
    <AdminOnly>
      <AdminSettings />
    </AdminOnly>
  );
}

function AdminSettings() {
  const styles = useStyles();
  const prepared = useLoaderData() as AdminSettingsPrepared | null;
  const { queryRef, refetch } = usePreparedQuery<AdminSettingsRouteQuery>(query, prepared?.query);
  const loading = <Spinner className={styles.loading} label="Loading settings..." />;
  return (
    <>
      <PageHeader title="Admin Settings" subtitle="AI assist configuration, usage and data management" />
      {queryRef == null ? (
        loading
      ) : (
        <Suspense fallback={loading}>
          <LoadedSettings queryRef={queryRef} refetch={refetch} />
        </Suspense>
      )}
    </>
  );
}

function LoadedSettings({ queryRef, refetch }: { queryRef: PreloadedQuery<AdminSettingsRouteQuery>; refetch: () => void }) {
  const styles = useStyles();
  const data = usePreloadedQuery<AdminSettingsRouteQuery>(query, queryRef);
  const configured = data.openAiKeyStatus.hasValue;
  return (
    <div className={styles.grid}>
      <OpenAiKeyCard configured={configured} updatedAt={data.openAiKeyStatus.updatedAt ?? null} onChanged={refetch} />
      {configured ? <AiUsageCard stats={data.aiUsageStats} /> : null}
      {configured ? <AiBulkCard state={data.aiBulkCategorization} onChanged={refetch} /> : null}
      <ReviewRulesCard rules={data.reviewRules} onChanged={refetch} />
      <FallbackReviewersCard query={data} onChanged={refetch} />
      <ExpiredMitigationsCard list={data.expiredMitigations} />
      <OpenQuestionsCard query={data} />
      <PurgeDataCard />
      <AiInfoCard />
    </div>
  );
}
