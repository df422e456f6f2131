import { Body1, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner } from '@fluentui/react-components';

/** The confirmation before an administrator closes the active review period (a chunk of its own: opened on demand). */
export function ClosePeriodDialog({
  open,
  onOpenChange,
  periodName,
  closing,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  periodName: string | null;
  closing: boolean;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(_, d) => !closing && onOpenChange(d.open)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Close Review Period</DialogTitle>
          <DialogContent>
            <Body1>
              Closing {periodName ? <strong>{periodName}</strong> : 'the period'} locks all review operations: reviewers cannot make, change, submit or recall
              decisions until a new review period is opened.
            </Body1>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={closing} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button appearance="primary" disabled={closing} icon={closing ? <Spinner size="tiny" /> : undefined} onClick={onConfirm}>
              Close Period
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
