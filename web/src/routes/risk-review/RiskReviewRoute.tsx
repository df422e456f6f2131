import { Body1, Card, makeStyles, Subtitle2, Tab, TabList, tokens } from '@fluentui/react-components';
import { WrenchScrewdriver24Regular } from '@fluentui/react-icons';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../auth/SessionProvider';
import { PageHeader } from '../../components/PageHeader';
import { AssignedRisks } from '../assigned-risks/AssignedRisks';
import { AssignmentManager } from '../assignments/AssignmentManager';
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
  notYet: {
    display: 'flex',
    flexDirection: 'row',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalL,
    padding: tokens.spacingHorizontalXL,
    maxWidth: '720px',
  },
  notYetIcon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    width: '48px',
    height: '48px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
  },
  notYetText: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS },
  muted: { color: tokens.colorNeutralForeground3 },
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
        {tab === 'detailed' ? <DetailedReviewNotYet /> : null}
        {tab === 'assignments' ? <AssignmentManager embedded /> : null}
        {tab === 'status' ? <ReviewerStatus /> : null}
      </div>
    </>
  );
}

function DetailedReviewNotYet() {
  const styles = useStyles();
  return (
    <Card className={styles.notYet} appearance="filled-alternative">
      <div className={styles.notYetIcon} aria-hidden>
        <WrenchScrewdriver24Regular />
      </div>
      <div className={styles.notYetText}>
        <Subtitle2 as="h2">Detailed Review is not available yet.</Subtitle2>
        <Body1 className={styles.muted}>
          The composite-role view (users, their risk groups and composite roles with authorization details) is being built
          and will appear here in a coming release. Use Risk Overview to review risks meanwhile.
        </Body1>
      </div>
    </Card>
  );
}
