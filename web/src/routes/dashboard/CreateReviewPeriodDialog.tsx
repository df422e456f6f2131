import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Spinner,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { CreateReviewPeriodDialogMutation } from '../../__generated__/CreateReviewPeriodDialogMutation.graphql';
import { errorMessage, thrownMessage } from '../../components/mutationResult';
import { useNotify } from '../../components/toast';

const useStyles = makeStyles({
  surface: { maxWidth: '520px' },
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
});

const mutation = graphql`
  mutation CreateReviewPeriodDialogMutation($input: CreateReviewPeriodInput!, $connections: [ID!]!) {
    createReviewPeriod(input: $input) {
      __typename
      ... on MutationCreateReviewPeriodSuccess {
        data @prependNode(connections: $connections, edgeTypeName: "QueryReviewPeriodsConnectionEdge") {
          id
          name
          description
          startDate
          endDate
          closedAt
          status
        }
      }
      ... on ValidationError {
        field
      }
      ... on Error {
        message
      }
    }
  }
`;

type Form = { name: string; description: string; endDate: string };
const EMPTY: Form = { name: '', description: '', endDate: '' };

/** SPEC §2/§5: 'Create New Review Period' (creates and activates). */
export function CreateReviewPeriodDialog({
  open,
  onOpenChange,
  connectionId,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  connectionId: string;
  onCreated: () => void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const [form, setForm] = useState<Form>(EMPTY);
  const [nameError, setNameError] = useState<string | undefined>();
  const [commit, inFlight] = useMutation<CreateReviewPeriodDialogMutation>(mutation);

  const close = () => {
    if (inFlight) return;
    setForm(EMPTY);
    setNameError(undefined);
    onOpenChange(false);
  };

  const fail = (message?: string) =>
    notify({ title: 'Error', description: message || 'Failed to create review period. Please try again', intent: 'error' });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (inFlight || !form.name.trim()) return;
    commit({
      variables: {
        input: {
          name: form.name.trim(),
          description: form.description.trim() || null,
          endDate: form.endDate ? new Date(`${form.endDate}T23:59:59`).toISOString() : null,
        },
        connections: [connectionId],
      },
      updater: (store) => {
        const period = store.getRootField('createReviewPeriod')?.getLinkedRecord('data');
        if (period) store.getRoot().setLinkedRecord(period, 'activeReviewPeriod');
      },
      onCompleted: ({ createReviewPeriod: r }) => {
        if (r.__typename !== 'MutationCreateReviewPeriodSuccess') {
          const message = errorMessage(r);
          if ('field' in r && r.field === 'name') setNameError(message);
          return fail(message);
        }
        notify({ title: 'Success', description: 'Review period created and activated', intent: 'success' });
        setForm(EMPTY);
        setNameError(undefined);
        onOpenChange(false);
        onCreated();
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  return (
    <Dialog open={open} onOpenChange={(_, d) => (d.open ? onOpenChange(true) : close())}>
      <DialogSurface className={styles.surface}>
        <form onSubmit={onSubmit} noValidate>
          <DialogBody>
            <DialogTitle>Create New Review Period</DialogTitle>
            <DialogContent className={styles.form}>
              <Field label="Name" required validationState={nameError ? 'error' : 'none'} validationMessage={nameError}>
                <Input
                  value={form.name}
                  placeholder="e.g. Q3 2025 Access Review"
                  autoFocus
                  onChange={(_, d) => {
                    setForm((f) => ({ ...f, name: d.value }));
                    setNameError(undefined);
                  }}
                />
              </Field>
              <Field label="Description" hint="Optional">
                <Textarea value={form.description} resize="vertical" onChange={(_, d) => setForm((f) => ({ ...f, description: d.value }))} />
              </Field>
              <Field label="End Date" hint="Optional: reviewers with pending decisions are reminded as it nears.">
                <Input type="date" value={form.endDate} onChange={(_, d) => setForm((f) => ({ ...f, endDate: d.value }))} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={close} disabled={inFlight}>
                Cancel
              </Button>
              <Button
                appearance="primary"
                type="submit"
                disabled={inFlight || !form.name.trim()}
                icon={inFlight ? <Spinner size="tiny" /> : undefined}
              >
                Create &amp; Activate
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
