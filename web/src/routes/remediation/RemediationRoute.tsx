import { Button, Card, makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, ArrowLeft16Regular } from '@fluentui/react-icons';
import { Suspense, useState } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import type { RemediationRouteQuery } from '../../__generated__/RemediationRouteQuery.graphql';
import { downloadFile, fileStamp } from '../../components/format/download';
import { restUrl } from '../../rest/client';
import { databaseIdOf } from '../../components/format/globalIds';
import { FilterSelect, type FilterChoice } from '../../components/lists/FilterBar';
import { LinkButton } from '../../components/forms/LinkButton';
import { PageHeader } from '../../components/layout/PageHeader';
import { LoadingBar } from '../../components/lists/SearchToolbar';
import { useNotify } from '../../components/forms/toast';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { AdminOnly } from '../../shell/AccessGate';
import { RemediationList } from './RemediationList';
import { ALL_REMEDIATION, remediationVariables, type RemediationFilters, type RemediationPrepared } from './remediationLoader';
import { STATUS_LABEL } from './RemediationRow';

const query = graphql`
  query RemediationRouteQuery($count: Int!, $cursor: String, $filter: RemediationFilter) {
    reviewPeriods(first: 50) {
      edges {
        node {
          id
          name
          status
        }
      }
    }
    ...RemediationList_query @arguments(count: $count, cursor: $cursor, filter: $filter)
  }
`;

const useStyles = makeStyles({
  card: { padding: 0, rowGap: 0 },
  toolbar: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
  footer: { paddingBottom: tokens.spacingVerticalM },
});

const STATUS_CHOICES: readonly FilterChoice[] = [['', 'All'], ...Object.entries(STATUS_LABEL).map(([value, label]) => [value.toLowerCase(), label] as const)];

/** The remediation list: approved removals for the people who revoke access; administrators only. */
export default function RemediationRoute() {
  return (
    <AdminOnly>
      <RemediationScreen />
    </AdminOnly>
  );
}

function RemediationScreen() {
  const styles = useStyles();
  const prepared = useLoaderData() as RemediationPrepared | null;
  const { queryRef, isPending, load } = usePreparedQuery<RemediationRouteQuery>(query, prepared?.query);
  const [filters, setFilters] = useState<RemediationFilters>(ALL_REMEDIATION);
  const update = (patch: Partial<RemediationFilters>) => {
    const next = { ...filters, ...patch };
    setFilters(next);
    load(remediationVariables(next));
  };
  const loading = <Spinner className={styles.loading} label="Loading remediation items..." />;
  return (
    <>
      <PageHeader
        title="Remediation"
        subtitle="Approved removals for the people who revoke access: mark each done or failed; the next upload verifies what was done."
        actions={
          <LinkButton to="/reports" appearance="subtle" icon={<ArrowLeft16Regular />}>
            Back to Reports
          </LinkButton>
        }
      />
      <Card className={styles.card}>
        {queryRef == null ? (
          loading
        ) : (
          <Suspense fallback={loading}>
            <LoadedRemediation queryRef={queryRef} filters={filters} onFilters={update} isPending={isPending} />
          </Suspense>
        )}
      </Card>
    </>
  );
}

function LoadedRemediation({
  queryRef,
  filters,
  onFilters,
  isPending,
}: {
  queryRef: PreloadedQuery<RemediationRouteQuery>;
  filters: RemediationFilters;
  onFilters: (patch: Partial<RemediationFilters>) => void;
  isPending: boolean;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const data = usePreloadedQuery<RemediationRouteQuery>(query, queryRef);
  const periods = data.reviewPeriods.edges.map((e) => e.node);
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    const periodId = (filters.periodId ? databaseIdOf(filters.periodId, 'ReviewPeriod') : null) ?? undefined;
    const url = restUrl('/api/remediation', { query: { format: 'csv', periodId, status: filters.status || undefined } });
    setDownloading(true);
    try {
      await downloadFile(url, `${fileStamp()}-remediation.csv`);
      notify({ title: 'Success', description: 'Remediation list has been downloaded', intent: 'success' });
    } catch (e) {
      notify({ title: 'Error', description: (e as Error).message || 'Download failed', intent: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <div className={styles.toolbar}>
        <FilterSelect
          label="Review period"
          value={filters.periodId}
          choices={[['', 'All periods'], ...periods.map((p) => [p.id, `${p.name} (${p.status === 'CLOSED' ? 'Closed' : 'Active'})`] as const)]}
          onChange={(periodId) => onFilters({ periodId })}
        />
        <FilterSelect label="Status" value={filters.status} choices={STATUS_CHOICES} onChange={(status) => onFilters({ status })} />
        <Button icon={<ArrowDownload20Regular />} disabled={downloading} onClick={download}>
          {downloading ? 'Downloading...' : 'Download CSV'}
        </Button>
      </div>
      <LoadingBar active={isPending} label="Loading remediation items..." />
      <div className={styles.footer}>
        <RemediationList query={data} statusFilter={queryRef.variables.filter?.status ?? ''} />
      </div>
    </>
  );
}
