import { Caption1, Card, CardHeader, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowRight16Regular, History24Regular, TextBulletListSquare24Regular } from '@fluentui/react-icons';
import { Suspense } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData } from 'react-router';
import type { ReportsRouteQuery } from '../../__generated__/ReportsRouteQuery.graphql';
import { LinkButton } from '../../components/forms/LinkButton';
import { ListEmpty, ListTable } from '../../components/lists/ListTable';
import { PageHeader } from '../../components/layout/PageHeader';
import { ReviewDecisionRow } from '../../domain/reviews/ReviewDecisionRow';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import type { ReportsPrepared } from './reportsLoader';
import { EvidenceCard } from './EvidenceCard';

const query = graphql`
  query ReportsRouteQuery($isAdmin: Boolean!) {
    ...EvidenceCard_query @include(if: $isAdmin) @alias(as: "evidence")
    recentReviews(first: 10) {
      edges {
        node {
          id
          ...ReviewDecisionRow_review
        }
      }
    }
  }
`;

const useStyles = makeStyles({
  card: { padding: 0, rowGap: 0 },
  header: {
    paddingTop: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  icon: { color: tokens.colorBrandForeground1 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  table: { minWidth: '760px' },
  loading: { paddingTop: tokens.spacingVerticalXXL, paddingBottom: tokens.spacingVerticalXXL },
  page: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
});

/** SPEC §2, 'Reports': Recent Risk Reviews, with View All to /all-reviews. */
export default function ReportsRoute() {
  const styles = useStyles();
  const prepared = useLoaderData() as ReportsPrepared | null;
  const { queryRef } = usePreparedQuery<ReportsRouteQuery>(query, prepared?.query);
  const loading = <Spinner className={styles.loading} label="Loading recent reviews..." />;
  return (
    <div className={styles.page}>
      <PageHeader title="Reports" subtitle="Recent review decisions and the complete review history." />
      <Card className={styles.card}>
        <CardHeader
          className={styles.header}
          image={<History24Regular className={styles.icon} />}
          header={
            <Subtitle2 as="h2" className={styles.title}>
              Recent Risk Reviews
            </Subtitle2>
          }
          description={<Caption1 className={styles.muted}>The latest retain and remove decisions</Caption1>}
          action={
            <LinkButton to="/all-reviews" appearance="primary" icon={<ArrowRight16Regular />} iconPosition="after">
              View All
            </LinkButton>
          }
        />
        {queryRef == null ? (
          loading
        ) : (
          <Suspense fallback={loading}>
            <RecentReviews queryRef={queryRef} />
          </Suspense>
        )}
      </Card>
      {queryRef == null ? null : (
        <Suspense fallback={null}>
          <AdminReports queryRef={queryRef} />
        </Suspense>
      )}
    </div>
  );
}

/** Administrators: the evidence and remediation downloads (the query holds them only for administrators). */
function AdminReports({ queryRef }: { queryRef: PreloadedQuery<ReportsRouteQuery> }) {
  const data = usePreloadedQuery<ReportsRouteQuery>(query, queryRef);
  return data.evidence ? <EvidenceCard query={data.evidence} /> : null;
}

function RecentReviews({ queryRef }: { queryRef: PreloadedQuery<ReportsRouteQuery> }) {
  const styles = useStyles();
  const data = usePreloadedQuery<ReportsRouteQuery>(query, queryRef);
  const columns = [{ label: 'User' }, { label: 'Risk Level' }, { label: 'Role' }, { label: 'Decision' }, { label: 'Reviewer' }, { label: 'Date' }];
  return (
    <ListTable
      label="Recent Risk Reviews"
      className={styles.table}
      columns={columns}
      empty={
        <ListEmpty icon={<TextBulletListSquare24Regular aria-hidden />} title="No reviews yet" description="Decisions appear here as reviewers make them." />
      }
      rows={data.recentReviews.edges.map(({ node: r }) => (
        <ReviewDecisionRow key={r.id} review={r} />
      ))}
    />
  );
}
