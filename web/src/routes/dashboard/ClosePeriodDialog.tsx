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
  MessageBar,
  MessageBarBody,
  Spinner,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';

const useStyles = makeStyles({ content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM } });

/**
 * The confirmation before an administrator closes the active review period (a
 * chunk of its own: opened on demand). While conflicts remain that nobody
 * could review, the close asks why; the reason goes into the audit trail and
 * the evidence.
 */
export function ClosePeriodDialog({
  open,
  onOpenChange,
  periodName,
  closing,
  unassignedConflicts = 0,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  periodName: string | null;
  closing: boolean;
  unassignedConflicts?: number;
  onConfirm: (reason: string | null) => void;
}) {
  const styles = useStyles();
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
