import { Badge, Button, Caption1, Card, CardHeader, makeStyles, Spinner, Subtitle2, Text, tokens } from '@fluentui/react-components';
import { Add20Regular, CalendarLtr24Regular, LockClosed20Regular, ArrowCounterclockwise20Regular } from '@fluentui/react-icons';
import { lazy, useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { ReviewPeriodCardCloseMutation } from '../../__generated__/ReviewPeriodCardCloseMutation.graphql';
import type { ReviewPeriodCardReopenMutation } from '../../__generated__/ReviewPeriodCardReopenMutation.graphql';
import type { ReviewPeriodCard_query$data, ReviewPeriodCard_query$key } from '../../__generated__/ReviewPeriodCard_query.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { formatDate } from '../../domain/risks/riskDisplay';
import { useNotify } from '../../components/forms/toast';
import { OnDemand } from '../../components/layout/OnDemand';
import { RecurringPeriods } from './RecurringPeriods';

// Dialogs opened on demand are chunks of their own, not on the dashboard's first load.
const CreateReviewPeriodDialog = lazy(() => import('./CreateReviewPeriodDialog').then((m) => ({ default: m.CreateReviewPeriodDialog })));
const ClosePeriodDialog = lazy(() => import('./ClosePeriodDialog').then((m) => ({ default: m.ClosePeriodDialog })));

/** SPEC §9: recent closed periods shown. */
export const RECENT_CLOSED_PERIODS = 3;

const useStyles = makeStyles({
  cardTitle: { margin: 0 },
  card: { padding: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalM },
  icon: { color: tokens.colorBrandForeground1 },
  muted: { color: tokens.colorNeutralForeground3 },
  active: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorPaletteGreenBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteGreenBorder1}`,
  },
  nameRow: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalS,
  },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  none: {
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
  },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  recentTitle: { color: tokens.colorNeutralForeground2, fontWeight: tokens.fontWeightSemibold },
  recentList: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  recentItem: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalM,
    paddingTop: tokens.spacingVerticalXS,
    paddingBottom: tokens.spacingVerticalXS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  recentText: { display: 'flex', flexDirection: 'column', minWidth: 0 },
});

const closeMutation = graphql`
  mutation ReviewPeriodCardCloseMutation($id: ID!, $reason: String) {
    closeReviewPeriod(id: $id, reason: $reason) {
      __typename
      ... on MutationCloseReviewPeriodSuccess {
        data {
          id
          status
          closedAt
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const reopenMutation = graphql`
  mutation ReviewPeriodCardReopenMutation($id: ID!) {
    reopenReviewPeriod(id: $id) {
      __typename
      ... on MutationReopenReviewPeriodSuccess {
        # Every field the card reads of the active period: the updater makes this record the active one.
        data {
          id
          name
          description
          startDate
          endDate
          status
          closedAt
          reminderDaysBefore
          defaultDecisionAtClose
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

export function periodRange(startDate: string, endDate: string | null | undefined): string {
  return `${formatDate(startDate)} – ${endDate ? formatDate(endDate) : 'Ongoing'}`;
}

const AT_CLOSE: Record<string, string> = { RETAIN: 'retained', REMOVE: 'removed' };

/** The active period's reminder points and what its close does to items without a decision; null when neither is set. */
export function deadlineSummary(days: ReadonlyArray<number>, atClose: string): string | null {
  const parts: string[] = [];
  if (days.length)
    parts.push(
      `Reminders ${days.length > 1 ? `${days.slice(0, -1).join(', ')} and ${days[days.length - 1]}` : days[0]} day${days.length === 1 && days[0] === 1 ? '' : 's'} before the end`,
    );
  if (AT_CLOSE[atClose]) parts.push(`items without a decision are ${AT_CLOSE[atClose]} at close`);
  return parts.length ? `${parts.join('; ')}.`.replace(/^./, (c) => c.toUpperCase()) : null;
}

/** SPEC §2: the administrators' Review Period Status card. */
export function ReviewPeriodCard({ query, onPeriodChanged }: { query: ReviewPeriodCard_query$key; onPeriodChanged: () => void }) {
  const styles = useStyles();
  const data = useFragment(
    graphql`
      fragment ReviewPeriodCard_query on Query {
        ...RecurringPeriods_query
        dashboardStats {
          unassignedConflicts
        }
        activeReviewPeriod {
          id
          name
          description
          startDate
          endDate
          status
          reminderDaysBefore
          defaultDecisionAtClose
        }
        reviewPeriods(first: 20) @connection(key: "ReviewPeriodCard_reviewPeriods") {
          __id
          edges {
            node {
              id
              name
              startDate
              endDate
              closedAt
              status
            }
          }
        }
      }
    `,
    query,
  );
  const [creating, setCreating] = useState(false);
  const active = data.activeReviewPeriod;
  const periods = usePeriodMutations(active?.id ?? null, onPeriodChanged);
  const { confirmClose, setConfirmClose, closing } = periods;
  const closed = data.reviewPeriods.edges
    .map((e) => e.node)
    .filter((p) => p.status === 'CLOSED' && p.id !== active?.id)
    .slice(0, RECENT_CLOSED_PERIODS);

  return (
    <Card className={styles.card}>
      <CardHeader
        image={<CalendarLtr24Regular className={styles.icon} />}
        header={
          <Subtitle2 as="h2" className={styles.cardTitle}>
            Review Period Status
          </Subtitle2>
        }
        description={<Caption1 className={styles.muted}>Decisions can be made only while a period is active</Caption1>}
      />
      {active ? (
        <ActivePeriod active={active} onClose={() => setConfirmClose(true)} />
      ) : (
        <NoActivePeriod closed={closed} periods={periods} onCreate={() => setCreating(true)} />
      )}
      <RecurringPeriods query={data} />

      <OnDemand open={confirmClose}>
        <ClosePeriodDialog
          open={confirmClose}
          onOpenChange={setConfirmClose}
          periodId={active?.id ?? null}
          periodName={active?.name ?? null}
          closing={closing}
          unassignedConflicts={data.dashboardStats.unassignedConflicts}
          onConfirm={periods.close}
        />
      </OnDemand>

      <OnDemand open={creating}>
        <CreateReviewPeriodDialog open={creating} onOpenChange={setCreating} connectionId={data.reviewPeriods.__id} onCreated={onPeriodChanged} />
      </OnDemand>
    </Card>
  );
}

type CardData = ReviewPeriodCard_query$data;
type ActiveData = NonNullable<CardData['activeReviewPeriod']>;
type ClosedPeriod = CardData['reviewPeriods']['edges'][number]['node'];

/** Closing the active period (after its confirmation) and reopening a recent closed one. */
function usePeriodMutations(activeId: string | null, onPeriodChanged: () => void) {
  const notify = useNotify();
  const [confirmClose, setConfirmClose] = useState(false);
  const [commitClose, closing] = useMutation<ReviewPeriodCardCloseMutation>(closeMutation);
  const [commitReopen, reopening] = useMutation<ReviewPeriodCardReopenMutation>(reopenMutation);
  const [reopeningId, setReopeningId] = useState<string | null>(null);

  const close = (reason: string | null) => {
    if (!activeId) return;
    const fail = (message?: string) => notify({ title: 'Error', description: message || 'Failed to close review period. Please try again', intent: 'error' });
    commitClose({
      variables: { id: activeId, reason },
      updater: (store, response) => {
        if (response?.closeReviewPeriod.__typename === 'MutationCloseReviewPeriodSuccess') {
          store.getRoot().setValue(null, 'activeReviewPeriod');
        }
      },
      onCompleted: ({ closeReviewPeriod: r }) => {
        if (r.__typename !== 'MutationCloseReviewPeriodSuccess') return fail(errorMessage(r));
        setConfirmClose(false);
        notify({ title: 'Success', description: 'Review period closed', intent: 'success' });
        onPeriodChanged();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  const reopen = (id: string) => {
    const fail = (message?: string) => notify({ title: 'Error', description: message || 'Failed to open review period. Please try again', intent: 'error' });
    setReopeningId(id);
    commitReopen({
      variables: { id },
      updater: (store) => {
        const payload = store.getRootField('reopenReviewPeriod');
        const period = payload?.getLinkedRecord('data');
        if (period) store.getRoot().setLinkedRecord(period, 'activeReviewPeriod');
      },
      onCompleted: ({ reopenReviewPeriod: r }) => {
        setReopeningId(null);
        if (r.__typename !== 'MutationReopenReviewPeriodSuccess') return fail(errorMessage(r));
        notify({ title: 'Success', description: 'Review period opened', intent: 'success' });
        onPeriodChanged();
      },
      onError: (e) => {
        setReopeningId(null);
        fail(thrownMessage(e));
      },
    });
  };

  return { confirmClose, setConfirmClose, close, closing, reopen, reopening, reopeningId };
}

function ActivePeriod({ active, onClose }: { active: ActiveData; onClose: () => void }) {
  const styles = useStyles();
  const deadline = deadlineSummary(active.reminderDaysBefore, active.defaultDecisionAtClose);
  return (
    <>
      <div className={styles.active} role="group" aria-label="Active review period">
        <div className={styles.nameRow}>
          <Text className={styles.name}>{active.name}</Text>
          <Badge appearance="filled" color="success">
            Active
          </Badge>
        </div>
        <Caption1>{periodRange(active.startDate, active.endDate)}</Caption1>
        {deadline ? <Caption1 className={styles.muted}>{deadline}</Caption1> : null}
        {active.description ? <Caption1 className={styles.muted}>{active.description}</Caption1> : null}
      </div>
      <div className={styles.actions}>
        <Button icon={<LockClosed20Regular />} onClick={onClose}>
          Close Period
        </Button>
      </div>
    </>
  );
}

/** No active period: creating one, or reopening one of the recent closed periods. */
function NoActivePeriod({
  closed,
  periods,
  onCreate,
}: {
  closed: readonly ClosedPeriod[];
  periods: ReturnType<typeof usePeriodMutations>;
  onCreate: () => void;
}) {
  const styles = useStyles();
  return (
    <>
      <div className={styles.none} role="status">
        <Text weight="semibold">No Active Review Period</Text>
        <Caption1 className={styles.muted}>Review operations are locked. Create a new period, or reopen a recent one, to let reviewers decide.</Caption1>
      </div>
      <div className={styles.actions}>
        <Button appearance="primary" icon={<Add20Regular />} onClick={onCreate}>
          Create New Review Period
        </Button>
      </div>
      {closed.length > 0 ? (
        <section aria-label="Recent closed periods">
          <Caption1 className={styles.recentTitle}>Recent closed periods</Caption1>
          <ul className={styles.recentList}>
            {closed.map((p) => (
              <li key={p.id} className={styles.recentItem}>
                <div className={styles.recentText}>
                  <Text className={styles.name}>{p.name}</Text>
                  <Caption1 className={styles.muted}>{periodRange(p.startDate, p.endDate)}</Caption1>
                </div>
                <Button
                  size="small"
                  icon={periods.reopening && periods.reopeningId === p.id ? <Spinner size="tiny" /> : <ArrowCounterclockwise20Regular />}
                  disabled={periods.reopening}
                  onClick={() => periods.reopen(p.id)}
                  aria-label={`Reopen ${p.name}`}
                >
                  Reopen
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
