// Reviewer Status of a multi-stage period: how far each stage is (the rows
// that reached it, decided and pending, and the reviewers who submitted it),
// a bar per stage on one scale because administrators compare them, and the
// same figures as a list for reading and assistive technology. A one-stage
// period shows nothing here and asks for nothing (its progress is the
// reviewers' table): the stages' counts are loaded only for a period with
// several stages.
import { Caption1, makeStyles, mergeClasses, Spinner, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useEffect } from 'react';
import { graphql, useFragment, usePreloadedQuery, useQueryLoader, type PreloadedQuery } from 'react-relay';
import type { StageProgress_period$key } from '../../__generated__/StageProgress_period.graphql';
import type { StageProgressQuery } from '../../__generated__/StageProgressQuery.graphql';
import { formatCount } from '../../components/layout/StatTile';
import { useChartListStyles } from '../../components/charts/chartListStyles';

const stageProgressQuery = graphql`
  query StageProgressQuery {
    activeReviewPeriod {
      id
      ...StageProgress_period
    }
  }
`;

const StageProgressChart = lazy(() => import('./StageProgressChart').then((m) => ({ default: m.StageProgressChart })));

const useStyles = makeStyles({
  section: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
});

const REVIEWED_BY: Record<string, string> = { CRITERIA: 'assignment criteria', USERS: 'listed users', PROCESS_OWNER: 'business process owners' };
const PASSES_ON: Record<string, string> = {
  ALL: 'all decisions',
  REMOVALS: 'removals only',
  HIGH_RETENTIONS: 'retentions of high risks',
  MITIGATED: 'mitigated',
};

/** The active period's stages and their progress, asked for again whenever the tab's figures are (`refreshKey` changes). */
export function StageProgressSection({ periodId, refreshKey }: { periodId: string; refreshKey: unknown }) {
  const [queryRef, load] = useQueryLoader<StageProgressQuery>(stageProgressQuery);
  useEffect(() => {
    load({}, { fetchPolicy: 'store-and-network' });
  }, [periodId, refreshKey, load]);
  const loading = <Spinner size="tiny" label="Loading progress by stage..." />;
  return queryRef ? (
    <Suspense fallback={loading}>
      <LoadedStages queryRef={queryRef} />
    </Suspense>
  ) : (
    loading
  );
}

function LoadedStages({ queryRef }: { queryRef: PreloadedQuery<StageProgressQuery> }) {
  const { activeReviewPeriod: period } = usePreloadedQuery<StageProgressQuery>(stageProgressQuery, queryRef);
  return period ? <StageProgress period={period} /> : null;
}

function StageProgress({ period }: { period: StageProgress_period$key }) {
  const styles = useStyles();
  const chartList = useChartListStyles();
  const { stages } = useFragment(
    graphql`
      fragment StageProgress_period on ReviewPeriod {
        stages {
          number
          name
          reviewerType
          passOn
          progress {
            reached
            decided
            pending
            submittedReviewers
          }
        }
      }
    `,
    period,
  );
  if (stages.length < 2) return null;
  const label = (s: (typeof stages)[number]) => `Stage ${s.number} · ${s.name}`;
  const bars = stages.map((s) => ({ key: String(s.number), label: label(s), reached: s.progress.reached, decided: s.progress.decided }));
  return (
    <section className={styles.section} aria-labelledby="stage-progress-title">
      <Subtitle2 as="h2" id="stage-progress-title" className={styles.title}>
        Progress by Stage
      </Subtitle2>
      <div className={chartList.chart} role="group" aria-label="Decided conflicts per stage chart">
        <Suspense fallback={<Spinner size="tiny" label="Loading chart..." />}>
          <StageProgressChart bars={bars} />
        </Suspense>
      </div>
      <ul className={chartList.list} aria-label="Progress by stage">
        {stages.map((s) => (
          <li key={s.number} className={mergeClasses(chartList.item, chartList.wrapping)}>
            <span className={chartList.name}>
              <Text weight="semibold">{label(s)}</Text>{' '}
              <Caption1 className={styles.muted}>
                {`by ${REVIEWED_BY[s.reviewerType] ?? s.reviewerType}${s.number > 1 ? `; passes on ${PASSES_ON[s.passOn] ?? s.passOn}` : ''}`}
              </Caption1>
            </span>
            <Text className={chartList.figure}>
              {`${formatCount(s.progress.decided)} of ${formatCount(s.progress.reached)} decided · ${formatCount(s.progress.pending)} pending · ${formatCount(
                s.progress.submittedReviewers,
              )} submitted`}
            </Text>
          </li>
        ))}
      </ul>
    </section>
  );
}
