import { Breadcrumb, BreadcrumbButton, BreadcrumbDivider, BreadcrumbItem, Button, makeStyles, Tab, TabList, tokens } from '@fluentui/react-components';
import { Send20Regular } from '@fluentui/react-icons';
import { useEffect, useState, type MouseEvent } from 'react';
import { graphql, usePreloadedQuery, type PreloadedQuery } from 'react-relay';
import { useLoaderData, useNavigate } from 'react-router';
import type { NotificationsRouteQuery } from '../../__generated__/NotificationsRouteQuery.graphql';
import { useAuth } from '../../auth/SessionProvider';
import { PageHeader } from '../../components/layout/PageHeader';
import { RouteLoading } from '../../components/layout/RouteLoading';
import { usePreparedQuery } from '../../router/usePreparedQuery';
import { NOTIFICATIONS_POLL_MS } from '../../domain/notifications/NotificationBell';
import { AllNotificationsFeed } from './AllNotificationsFeed';
import { MyNotificationsFeed } from './MyNotificationsFeed';
import type { NotificationTab } from './NotificationList';
import type { NotificationsPrepared } from './notificationsLoader';
import { NotificationStats } from './NotificationStats';
import { SendNotificationDialog } from './SendNotificationDialog';

const query = graphql`
  query NotificationsRouteQuery($isAdmin: Boolean!, $count: Int!, $userCount: Int!) {
    # The cards describe the list below: an administrator's lists every notification sent
    # (unread: those addressed to them that they have not read, as the bell counts), anyone
    # else's their own.
    allNotificationCounts @include(if: $isAdmin) {
      ...NotificationStats_counts
    }
    notificationCounts @skip(if: $isAdmin) {
      ...NotificationStats_counts
    }
    ...AllNotificationsFeed_query @include(if: $isAdmin) @alias(as: "allFeed") @arguments(count: $count)
    ...MyNotificationsFeed_query @skip(if: $isAdmin) @alias(as: "myFeed") @arguments(count: $count)
    ...SendNotificationDialog_query @include(if: $isAdmin) @alias(as: "sendDialog") @arguments(count: $userCount)
  }
`;

const TABS: ReadonlyArray<{ value: NotificationTab; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'general', label: 'General' },
  { value: 'urgent', label: 'Urgent' },
  { value: 'warning', label: 'Warning' },
];

const useStyles = makeStyles({
  breadcrumb: {
    marginBottom: tokens.spacingVerticalS,
    marginLeft: `calc(-1 * ${tokens.spacingHorizontalS})`,
  },
  tabs: {
    marginBottom: tokens.spacingVerticalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    overflowX: 'auto',
  },
});

/**
 * SPEC §2, 'Notifications'. Administrators see every notification sent and
 * may send and delete; other users see their own (SPEC §6 shows no role gate).
 */
export default function NotificationsRoute() {
  const prepared = useLoaderData() as NotificationsPrepared | null;
  const { queryRef, refetch } = usePreparedQuery<NotificationsRouteQuery>(query, prepared?.query);
  // SPEC §9: polled every 30 s, so what others read ('Read by') and deletions show without a reload.
  useEffect(() => {
    const timer = window.setInterval(refetch, NOTIFICATIONS_POLL_MS);
    return () => window.clearInterval(timer);
  }, [refetch]);
  // The route's Suspense boundary shows the loading state while the query is on its way.
  return queryRef == null ? <RouteLoading /> : <Notifications queryRef={queryRef} />;
}

function Notifications({ queryRef }: { queryRef: PreloadedQuery<NotificationsRouteQuery> }) {
  const auth = useAuth();
  const viewer = auth.status === 'signedIn' ? auth.viewer : null;
  const isAdmin = viewer?.role === 'ADMIN';
  const data = usePreloadedQuery<NotificationsRouteQuery>(query, queryRef);
  const styles = useStyles();
  const navigate = useNavigate();
  const [tab, setTab] = useState<NotificationTab>('all');
  const [sendOpen, setSendOpen] = useState(false);
  const viewerId = viewer?.id ?? '';

  const counts = data.allNotificationCounts ?? data.notificationCounts;

  const toDashboard = (event: MouseEvent) => {
    event.preventDefault();
    navigate('/');
  };

  return (
    <>
      <Breadcrumb aria-label="Breadcrumb" className={styles.breadcrumb} size="small">
        <BreadcrumbItem>
          <BreadcrumbButton href="/" onClick={toDashboard}>
            Dashboard
          </BreadcrumbButton>
        </BreadcrumbItem>
        <BreadcrumbDivider />
        <BreadcrumbItem>
          <BreadcrumbButton current>Notifications</BreadcrumbButton>
        </BreadcrumbItem>
      </Breadcrumb>
      <PageHeader
        title="Notifications"
        subtitle={isAdmin ? 'Send announcements to users and review what has been sent.' : 'Messages sent to you by administrators.'}
        actions={
          isAdmin ? (
            <Button appearance="primary" icon={<Send20Regular />} onClick={() => setSendOpen(true)}>
              Send Notification
            </Button>
          ) : null
        }
      />
      {counts ? <NotificationStats counts={counts} /> : null}
      <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as NotificationTab)} aria-label="Filter by type">
        {TABS.map((t) => (
          <Tab key={t.value} value={t.value}>
            {t.label}
          </Tab>
        ))}
      </TabList>
      {data.allFeed ? <AllNotificationsFeed query={data.allFeed} tab={tab} viewerId={viewerId} /> : null}
      {data.myFeed ? <MyNotificationsFeed query={data.myFeed} tab={tab} viewerId={viewerId} /> : null}
      {data.sendDialog ? <SendNotificationDialog query={data.sendDialog} viewerId={viewerId} open={sendOpen} onOpenChange={setSendOpen} /> : null}
    </>
  );
}
