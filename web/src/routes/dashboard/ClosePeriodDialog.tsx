import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { graphql, useRelayEnvironment } from 'react-relay';
import { fetchQuery } from 'relay-runtime';
import type {
  ClosePeriodDialogReconciliationQuery,
  ClosePeriodDialogReconciliationQuery$data,
} from '../../__generated__/ClosePeriodDialogReconciliationQuery.graphql';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

const reconciliationQuery = graphql`
  query ClosePeriodDialogReconciliationQuery($id: ID!) {
    periodReconciliation(periodId: $id) {
      reconciled
      unexplainedRows
      entries {
        fileName
        differences {
          rows
          reason
        }
      }
    }
  }
`;

type Reconciliation = ClosePeriodDialogReconciliationQuery$data['periodReconciliation'];

/** Whether every row of the uploads is accounted for, as closing now would freeze it (the bundle says the same). */
function ReconciliationNote({ value }: { value: Reconciliation | null }) {
  if (!value) return <Spinner size="tiny" label="Reconciling the population…" />;
  if (value.reconciled) {
    return (
      <MessageBar intent="success">
        <MessageBarBody>The population reconciles: every row of the uploads is accounted for.</MessageBarBody>
      </MessageBar>
    );
  }
  const unexplained = value.entries.flatMap((e) =>
    e.differences.filter((d) => d.reason.startsWith('Unexplained:')).map((d) => `${e.fileName}: ${d.rows} — ${d.reason}`),
  );
  return (
    <MessageBar intent="warning" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>The population does not reconcile</MessageBarTitle>
        {value.unexplainedRows} rows differ without an explanation ({unexplained.join('; ')}). The evidence bundle will say so.
      </MessageBarBody>
    </MessageBar>
  );
}

/**
 * The confirmation before an administrator closes the active review period (a
 * chunk of its own: opened on demand). While conflicts remain that nobody
 * could review, the close asks why; the reason goes into the audit trail and
 * the evidence.
 */
export function ClosePeriodDialog({
  open,
  onOpenChange,
  periodId,
  periodName,
  closing,
  unassignedConflicts = 0,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  periodId: string | null;
  periodName: string | null;
  closing: boolean;
  unassignedConflicts?: number;
  onConfirm: (reason: string | null) => void;
}) {
  const styles = useStyles();
  const environment = useRelayEnvironment();
  const [reconciliation, setReconciliation] = useState<Reconciliation | null>(null);
  const [unknown, setUnknown] = useState(false);
  useEffect(() => {
    if (!open || !periodId) return;
    setReconciliation(null);
    setUnknown(false);
    const sub = fetchQuery<ClosePeriodDialogReconciliationQuery>(environment, reconciliationQuery, { id: periodId }, { fetchPolicy: 'network-only' }).subscribe(
      {
        next: (d) => setReconciliation(d.periodReconciliation),
        error: () => setUnknown(true),
      },
    );
    return () => sub.unsubscribe();
  }, [open, periodId, environment]);
  const [reason, setReason] = useState('');
  const needsReason = unassignedConflicts > 0;
  const missing = needsReason && !reason.trim();
  return (
    <Dialog open={open} onOpenChange={(_, d) => !closing && onOpenChange(d.open)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Close Review Period</DialogTitle>
          <DialogContent className={styles.content}>
            <Body1>
              Closing {periodName ? <strong>{periodName}</strong> : 'the period'} locks all review operations: reviewers cannot make, change, submit or recall
              decisions until a new review period is opened.
            </Body1>
            {periodId && !unknown ? <ReconciliationNote value={reconciliation} /> : null}
            {needsReason ? (
              <>
                <MessageBar intent="warning">
                  <MessageBarBody>
                    {unassignedConflicts.toLocaleString('en-US')} {unassignedConflicts === 1 ? 'conflict' : 'conflicts'} could not be seen by any reviewer.
                  </MessageBarBody>
                </MessageBar>
                <Field label="Reason for closing with unassigned conflicts" required hint="Recorded in the audit trail and the evidence.">
                  <Textarea value={reason} maxLength={2000} onChange={(_, d) => setReason(d.value)} disabled={closing} />
                </Field>
              </>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={closing} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              disabled={closing || missing}
              icon={closing ? <Spinner size="tiny" /> : undefined}
              onClick={() => onConfirm(needsReason ? reason.trim() : null)}
            >
              Close Period
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
