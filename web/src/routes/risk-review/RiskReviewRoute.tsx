import { makeStyles, Tab, TabList, tokens } from '@fluentui/react-components';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../auth/SessionProvider';
import { PageHeader } from '../../components/PageHeader';
import { AssignedRisks } from '../assigned-risks/AssignedRisks';
import { AssignmentManager } from '../../domain/assignments/AssignmentManager';
import { CompositeView } from '../composite-view/CompositeView';
import { ReviewerStatus } from './ReviewerStatus';
import { RiskQueue } from './RiskQueue';

const TABS = [
  { value: 'overview', label: 'Risk Overview' },
  { value: 'detailed', label: 'Detailed Review' },
  { value: 'assignments', label: 'Manage Assignments' },
  { value: 'status', label: 'Reviewer Status' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

const useStyles = makeStyles({
  tabs: {
    marginBottom: tokens.spacingVerticalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    overflowX: 'auto',
  },
});

/** SPEC §2, 'Risk Review': reviewers get 'My Assigned Risks', administrators four tabs (default 'overview'). */
export default function RiskReviewRoute() {
  const auth = useAuth();
  if (auth.status !== 'signedIn') return null;
  if (auth.viewer.role === 'reviewer') return <AssignedRisks />;
  return <AdminRiskReview />;
}

function AdminRiskReview() {
  const styles = useStyles();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = TABS.some((t) => t.value === requested) ? (requested as TabValue) : 'overview';

  return (
    <>
      <PageHeader title="Risk Review" subtitle="Review access-risk conflicts, assign them to reviewers and follow their progress." />
      <TabList
        className={styles.tabs}
        selectedValue={tab}
        onTabSelect={(_, d) => setParams(d.value === 'overview' ? {} : { tab: String(d.value) }, { replace: true })}
        aria-label="Risk review views"
      >
        {TABS.map((t) => (
          <Tab key={t.value} value={t.value}>
            {t.label}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" aria-label={TABS.find((t) => t.value === tab)?.label}>
        {tab === 'overview' ? <RiskQueue /> : null}
        {tab === 'detailed' ? <CompositeView /> : null}
        {tab === 'assignments' ? <AssignmentManager embedded /> : null}
        {tab === 'status' ? <ReviewerStatus /> : null}
      </div>
    </>
  );
}
