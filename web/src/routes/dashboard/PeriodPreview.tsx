import { Caption1, MessageBar, MessageBarBody, MessageBarTitle, Spinner, Subtitle2, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Suspense, lazy, useEffect, useMemo } from 'react';
import { graphql, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import type { PeriodPreviewQuery, PeriodPreviewQuery$variables } from '../../__generated__/PeriodPreviewQuery.graphql';
import { useDebouncedCallback } from '../../components/forms/useDebouncedCallback';
import { formatCount } from '../../components/layout/StatTile';
import { useChartListStyles } from '../../components/charts/chartListStyles';

const ReviewerLoadChart = lazy(() => import('./DashboardCharts').then((m) => ({ default: m.ReviewerLoadChart })));

const previewQuery = graphql`
  query PeriodPreviewQuery($input: CreateReviewPeriodInput!) {
    reviewPeriodPreview(input: $input) {
      __typename
      ... on QueryReviewPeriodPreviewSuccess {
        data {
          scope {
            rows
            highRows
          }
          stages {
            name
            reviewers {
              user {
                id
                email
                firstName
                lastName
              }
              rows
              fallbackRows
            }
          }
          fallback {
            rows
            selfReview
            unassigned
            nobody
            reviewers {
              id
            }
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

export type PeriodPreviewInput = PeriodPreviewQuery$variables['input'];

/** The reviewers the chart draws (the most loaded); the list below it names them all. */
const CHART_REVIEWERS = 10;

/** A section of the create-period dialog (the preview, the stages): a rule above, its title, muted notes. */
export const useDialogSectionStyles = makeStyles({
  section: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalS,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * 'Preview' in the create-period dialog: before 'Create & Activate', the
 * rows the period reviews, how many each stage-1 reviewer would get (a bar
 * per reviewer), and how many go to the fallback reviewer and why
 * (self-review, no criterion), so an administrator can fix the criteria
 * first. Asked again (after a short pause) whenever the period as it would
 * be created changes; `input` is null while it cannot be created (no name yet).
 */
export function PeriodPreview({ input }: { input: PeriodPreviewInput | null }) {
  const section = useDialogSectionStyles();
  const [queryRef, load, dispose] = useQueryLoader<PeriodPreviewQuery>(previewQuery);
  const key = useMemo(() => (input ? JSON.stringify(input) : null), [input]);
  const loadSoon = useDebouncedCallback((json: string) => load({ input: JSON.parse(json) as PeriodPreviewInput }, { fetchPolicy: 'network-only' }), 400);
  useEffect(() => {
    if (key) loadSoon(key);
    else dispose();
  }, [key, loadSoon, dispose]);
  const loading = <Spinner size="tiny" label="Loading preview..." />;
  return (
    <section className={section.section} aria-labelledby="period-preview-title" aria-live="polite">
      <Subtitle2 as="h3" id="period-preview-title" className={section.title}>
        Preview
      </Subtitle2>
      {!key ? (
        <Caption1 className={section.muted}>Enter a name to see who would review how many conflicts.</Caption1>
      ) : queryRef ? (
        <Suspense fallback={loading}>
          <PreviewFigures queryRef={queryRef} />
        </Suspense>
      ) : (
        loading
      )}
    </section>
  );
}

const personName = (u: { email: string; firstName: string | null | undefined; lastName: string | null | undefined }) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email;

function PreviewFigures({ queryRef }: { queryRef: PreloadedQuery<PeriodPreviewQuery> }) {
  const chartList = useChartListStyles();
  const section = useDialogSectionStyles();
  const { reviewPeriodPreview: r } = usePreloadedQuery<PeriodPreviewQuery>(previewQuery, queryRef);
  const data = r.__typename === 'QueryReviewPeriodPreviewSuccess' ? r.data : undefined;
  if (!data) {
    return (
      <MessageBar intent="warning">
        <MessageBarBody>{'message' in r && r.message ? r.message : 'The preview is not available.'}</MessageBarBody>
      </MessageBar>
    );
  }
  const { scope, stages, fallback } = data;
  const [first, ...later] = stages;
  const reviewers = first?.reviewers ?? [];
  const fallbackIds = new Set(fallback.reviewers.map((u) => u.id));
  const label = (u: (typeof reviewers)[number]['user']) => `${personName(u)}${fallbackIds.has(u.id) ? ' (fallback)' : ''}`;
  const bars = reviewers.slice(0, CHART_REVIEWERS).map((x) => ({ key: x.user.id, label: label(x.user), rows: x.rows }));
  return (
    <>
      <Text>
        Scope: {formatCount(scope.rows)} conflicts ({formatCount(scope.highRows)} high risk).
      </Text>
      <Text weight="semibold">{`Stage 1${first ? ` (${first.name})` : ''}: conflicts per reviewer`}</Text>
      {reviewers.length === 0 ? (
        <Caption1 className={section.muted}>No reviewer would get a conflict: add assignment criteria first.</Caption1>
      ) : (
        <>
          <div className={chartList.chart} role="group" aria-label="Conflicts per reviewer in stage 1 chart">
            <Suspense fallback={<Spinner size="tiny" label="Loading chart..." />}>
              <ReviewerLoadChart bars={bars} />
            </Suspense>
          </div>
          <ul className={chartList.list} aria-label="Conflicts per reviewer in stage 1">
            {reviewers.map((x) => (
              <li key={x.user.id} className={chartList.item}>
                <Text className={chartList.name}>{`${label(x.user)} · ${x.user.email}`}</Text>
                <Text className={mergeClasses(chartList.figure, chartList.whole)} weight="semibold">
                  {formatCount(x.rows)}
                </Text>
              </li>
            ))}
          </ul>
        </>
      )}
      <FallbackSummary fallback={fallback} />
      {later.map((s, i) => (
        <Caption1 key={`${i}-${s.name}`} className={section.muted}>
          {`Stage ${i + 2} (${s.name}): `}
          {s.reviewers.length ? s.reviewers.map((x) => `${personName(x.user)} up to ${formatCount(x.rows)}`).join('; ') : 'no reviewer would get a conflict'}
        </Caption1>
      ))}
    </>
  );
}

type Fallback = { rows: number; selfReview: number; unassigned: number; nobody: number; reviewers: readonly unknown[] };

/** How many rows go to the fallback reviewer and why; a warning when some would reach nobody. */
function FallbackSummary({ fallback: f }: { fallback: Fallback }) {
  if (f.rows === 0) return <Text>Fallback reviewer: no conflicts (every conflict has a reviewer of its own).</Text>;
  const why = `${formatCount(f.selfReview)} routed: self-review, ${formatCount(f.unassigned)} matching no assignment criterion`;
  return (
    <>
      <Text>{`Fallback reviewer: ${formatCount(f.rows)} conflicts (${why}).`}</Text>
      {f.nobody > 0 ? (
        <MessageBar intent="warning">
          <MessageBarBody>
            <MessageBarTitle>{`${formatCount(f.nobody)} conflicts nobody would review`}</MessageBarTitle>
            {f.reviewers.length
              ? "They are the fallback reviewers' own access: add an assignment for them."
              : 'Choose a fallback reviewer in Admin Settings, or add assignment criteria.'}
          </MessageBarBody>
        </MessageBar>
      ) : null}
    </>
  );
}
