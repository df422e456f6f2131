import { makeStyles, Tab, TabList, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useLoaderData, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/layout/PageHeader';
import { RISK_REVIEW_HEADING } from '../../boot/bootFrame';
import { RouteLoading } from '../../components/layout/RouteLoading';
import { RiskQueue } from './RiskQueue';
import { RISK_REVIEW_TAB_CODE, RISK_REVIEW_TABS, riskReviewTab, type RiskReviewPrepared } from './riskReviewLoader';

const CompositeView = lazy(() => RISK_REVIEW_TAB_CODE.detailed().then((m) => ({ default: m.CompositeView })));
const AssignmentManager = lazy(() => RISK_REVIEW_TAB_CODE.assignments().then((m) => ({ default: m.AssignmentManager })));
const ReviewerStatus = lazy(() => RISK_REVIEW_TAB_CODE.status().then((m) => ({ default: m.ReviewerStatus })));

const useStyles = makeStyles({
  tabs: {
    marginBottom: tokens.spacingVerticalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    overflowX: 'auto',
  },
});

/**
 * SPEC §2, 'Risk Review' for administrators: four tabs (default 'overview');
 * reviewers get 'My Assigned Risks' at the same address (the route table
 * chooses). The loader prepares the query of the tab in the address.
 */
export default function RiskReviewRoute() {
  const styles = useStyles();
  const [params, setParams] = useSearchParams();
  const tab = riskReviewTab(params);
  const loaded = useLoaderData() as RiskReviewPrepared | null;
  // Until the loader has run for this tab (or this session), the tab shows its loading state.
  const prepared = loaded?.tab === tab ? loaded : null;
  // On a narrow screen the tab strip scrolls; the selected tab is kept in view, when the tab
  // changes and when the strip's width does (a window narrowed). The tab is found by its
  // place, not by aria-selected: Fluent's tabs take the new selection a render after this
  // route, so aria-selected still named the tab before, which was scrolled back into view.
  const tabsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const strip = tabsRef.current;
    if (!strip) return;
    const index = RISK_REVIEW_TABS.findIndex((t) => t.value === tab);
    const reveal = () => {
      const selected = strip.querySelectorAll('[role="tab"]')[index];
      if (!selected || strip.clientWidth === 0) return;
      const s = strip.getBoundingClientRect();
      const t = selected.getBoundingClientRect();
      // Only the strip scrolls (scrollIntoView would move the page too).
      if (t.left < s.left) strip.scrollLeft -= s.left - t.left;
      else if (t.right > s.right) strip.scrollLeft += t.right - s.right;
    };
    reveal();
    const observer = new ResizeObserver(reveal);
    observer.observe(strip);
    return () => observer.disconnect();
  }, [tab]);

  return (
    <>
      <PageHeader title={RISK_REVIEW_HEADING.title} subtitle={RISK_REVIEW_HEADING.subtitle} />
      <TabList
        ref={tabsRef}
        className={styles.tabs}
        selectedValue={tab}
        // Each tab chosen is a history entry: Back returns to the tab before.
        onTabSelect={(_, d) => setParams(d.value === 'overview' ? {} : { tab: String(d.value) })}
        aria-label="Risk review views"
      >
        {RISK_REVIEW_TABS.map((t) => (
          <Tab key={t.value} value={t.value}>
            {t.label}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" aria-label={RISK_REVIEW_TABS.find((t) => t.value === tab)?.label}>
        {tab === 'overview' ? <RiskQueue prepared={prepared?.riskQueue} /> : null}
        <Suspense fallback={<RouteLoading />}>
          {tab === 'detailed' ? <CompositeView prepared={prepared?.compositeView} /> : null}
          {tab === 'assignments' ? <AssignmentManager prepared={prepared?.assignments} embedded /> : null}
          {tab === 'status' ? <ReviewerStatus prepared={prepared?.reviewerStatus} /> : null}
        </Suspense>
      </div>
    </>
  );
}
