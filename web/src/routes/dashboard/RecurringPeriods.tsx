import { Badge, Button, Caption1, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Add20Regular, ArrowRepeatAll20Regular, Delete20Regular, Edit20Regular } from '@fluentui/react-icons';
import { lazy, useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { RecurringPeriods_query$data, RecurringPeriods_query$key } from '../../__generated__/RecurringPeriods_query.graphql';
import type { RecurringPeriodsDeleteMutation } from '../../__generated__/RecurringPeriodsDeleteMutation.graphql';
import { FormDialog } from '../../components/forms/FormDialog';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { OnDemand } from '../../components/layout/OnDemand';
import { formatDate } from '../../domain/risks/riskDisplay';

const RecurringTemplateDialog = lazy(() => import('./RecurringTemplateDialog').then((m) => ({ default: m.RecurringTemplateDialog })));

const useStyles = makeStyles({
  header: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  title: {
    color: tokens.colorNeutralForeground2,
    fontWeight: tokens.fontWeightSemibold,
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXS,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  item: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    paddingTop: tokens.spacingVerticalXS,
    paddingBottom: tokens.spacingVerticalXS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  text: { display: 'flex', flexDirection: 'column', minWidth: 0, rowGap: tokens.spacingVerticalXXS },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS },
});

const deleteMutation = graphql`
  mutation RecurringPeriodsDeleteMutation($id: ID!) {
    deleteReviewPeriodTemplate(id: $id) {
      __typename
      ... on MutationDeleteReviewPeriodTemplateSuccess {
        data
      }
      ... on Error {
        message
      }
    }
  }
`;

export type Template = RecurringPeriods_query$data['reviewPeriodTemplates'][number];

const SCHEDULE_LABEL: Record<string, string> = { MONTHLY: 'Monthly', QUARTERLY: 'Quarterly', YEARLY: 'Yearly' };
export const scheduleLabel = (t: Pick<Template, 'schedule' | 'cron'>) => SCHEDULE_LABEL[t.schedule] ?? `Cron ${t.cron ?? ''} (UTC)`;

/** The review-period card's 'Recurring' section: templates the recurrence job makes periods from, with their next date and status. */
export function RecurringPeriods({ query }: { query: RecurringPeriods_query$key }) {
  const styles = useStyles();
  const data = useFragment(
    graphql`
      fragment RecurringPeriods_query on Query {
        reviewPeriodTemplates {
          id
          namePattern
          description
          durationDays
          reminderDaysBefore
          defaultDecisionAtClose
          schedule
          cron
          nextRunAt
          nextPeriodName
          status
          statusText
          stages {
            name
            reviewerType
            reviewers {
              id
            }
            passOn
            endDays
          }
        }
      }
    `,
    query,
  );
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const templates = data.reviewPeriodTemplates;
  return (
    <section aria-label="Recurring review periods">
      <div className={styles.header}>
        <Caption1 as="h3" className={styles.title}>
          <ArrowRepeatAll20Regular aria-hidden /> Recurring
        </Caption1>
        <Button size="small" icon={<Add20Regular />} onClick={() => setEditing('new')}>
          Add recurring period
        </Button>
      </div>
      {templates.length === 0 ? (
        <Caption1 className={styles.muted}>No recurring periods: each period is created by hand.</Caption1>
      ) : (
        <ul className={styles.list}>
          {templates.map((t) => (
            <li key={t.id} className={styles.item}>
              <div className={styles.text}>
                <Text className={styles.name}>{t.nextPeriodName}</Text>
                <Caption1 className={styles.muted}>
                  {scheduleLabel(t)} · next on {formatDate(t.nextRunAt)} · runs {t.durationDays} day{t.durationDays === 1 ? '' : 's'}
                  {t.stages.length > 1 ? ` · ${t.stages.length} stages: ${t.stages.map((s) => s.name).join(', ')}` : ''}
                </Caption1>
                {t.status === 'WAITING' ? (
                  <Badge appearance="tint" color="warning">
                    {t.statusText}
                  </Badge>
                ) : null}
              </div>
              <div className={styles.actions}>
                <Button size="small" icon={<Edit20Regular />} aria-label={`Edit ${t.namePattern}`} onClick={() => setEditing(t)} />
                <Button size="small" icon={<Delete20Regular />} aria-label={`Delete ${t.namePattern}`} onClick={() => setDeleting(t)} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <OnDemand open={editing !== null}>
        <RecurringTemplateDialog template={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} />
      </OnDemand>
      {deleting ? <DeleteTemplateDialog template={deleting} onClose={() => setDeleting(null)} /> : null}
    </section>
  );
}

function DeleteTemplateDialog({ template, onClose }: { template: Template; onClose: () => void }) {
  const notify = useNotify();
  const [commit, busy] = useMutation<RecurringPeriodsDeleteMutation>(deleteMutation);
  const fail = (message?: string) => notify({ title: 'Error', description: message || 'Failed to delete the recurring period', intent: 'error' });
  const onSubmit = () =>
    commit({
      variables: { id: template.id },
      updater: (store, response) => {
        if (response?.deleteReviewPeriodTemplate.__typename !== 'MutationDeleteReviewPeriodTemplateSuccess') return;
        const root = store.getRoot();
        const list = root.getLinkedRecords('reviewPeriodTemplates') ?? [];
        root.setLinkedRecords(
          list.filter((r) => r?.getDataID() !== template.id),
          'reviewPeriodTemplates',
        );
      },
      onCompleted: ({ deleteReviewPeriodTemplate: r }) => {
        if (r.__typename !== 'MutationDeleteReviewPeriodTemplateSuccess') return fail(errorMessage(r));
        notify({ title: 'Success', description: 'Recurring period deleted', intent: 'success' });
        onClose();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  return (
    <FormDialog title="Delete recurring period?" submitLabel="Delete" busy={busy} onSubmit={onSubmit} onClose={onClose} size="small">
      <Text>
        No more periods will be created from ‘{template.namePattern}’ ({scheduleLabel(template)}). The periods already created stay.
      </Text>
    </FormDialog>
  );
}
