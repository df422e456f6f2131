import { Caption1, Combobox, Field, Input, makeStyles, Option, Radio, RadioGroup, Select, Textarea, tokens } from '@fluentui/react-components';
import { useMemo, useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { SendNotificationDialog_query$key } from '../../__generated__/SendNotificationDialog_query.graphql';
import type { SendNotificationDialogMutation } from '../../__generated__/SendNotificationDialogMutation.graphql';
import { failureOf, FormDialog, SelectOptions, useFailureToast, useFieldErrors, useFormStyles, type FieldErrors } from '../../components/forms/FormDialog';
import { shownName } from '../../domain/users/userNames';
import { NOTIFICATION_TYPE_OPTIONS, type NotificationKind } from '../../domain/notifications/notificationKinds';
import { addNotification } from '../../domain/notifications/notificationStore';
import { useNotify } from '../../components/forms/toast';

const useStyles = makeStyles({
  option: {
    display: 'flex',
    flexDirection: 'column',
  },
  email: {
    color: tokens.colorNeutralForeground3,
  },
});

const mutation = graphql`
  mutation SendNotificationDialogMutation($input: SendNotificationInput!) {
    sendNotification(input: $input) {
      __typename
      ... on MutationSendNotificationSuccess {
        data {
          id
          type
          isRead
          targetType
          targetUser {
            id
          }
          ...NotificationCard_notification @arguments(isAdmin: true)
          ...NotificationBellItem_notification
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

type Form = {
  title: string;
  message: string;
  type: NotificationKind;
  targetType: 'ALL' | 'SPECIFIC';
  targetUserId: string | null;
};

type Errors = FieldErrors<'title' | 'message' | 'targetUserId'>;
const FIELDS = ['title', 'message', 'targetUserId'] as const;

const EMPTY: Form = { title: '', message: '', type: 'GENERAL', targetType: 'ALL', targetUserId: null };

/** SPEC §5, 'Notification form'. */
export function validateNotificationForm(form: Form): Errors {
  const errors: Errors = {};
  if (!form.title.trim()) errors.title = 'Title is required';
  if (!form.message.trim()) errors.message = 'Message is required';
  if (form.targetType === 'SPECIFIC' && !form.targetUserId) errors.targetUserId = 'Please choose the user to send to';
  return errors;
}

export type SendNotificationDialogProps = {
  query: SendNotificationDialog_query$key;
  viewerId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** 'Send Notification' (SPEC §2, Notifications). */
export function SendNotificationDialog({ query, viewerId, open, onOpenChange }: SendNotificationDialogProps) {
  const data = useFragment(
    graphql`
      fragment SendNotificationDialog_query on Query @argumentDefinitions(count: { type: "Int!" }) {
        users(first: $count) {
          edges {
            node {
              id
              firstName
              lastName
              displayName
              email
              isActive
            }
          }
        }
      }
    `,
    query,
  );
  const styles = useStyles();
  const formStyles = useFormStyles();
  const notify = useNotify();
  const fail = useFailureToast('Error', 'Failed to send notification');
  const [form, setForm] = useState<Form>(EMPTY);
  const { setErrors, clearError, validation } = useFieldErrors<keyof Form>();
  const [userQuery, setUserQuery] = useState('');
  const [commit, sending] = useMutation<SendNotificationDialogMutation>(mutation);

  const users = useMemo(
    () =>
      data.users.edges
        .map((e) => e.node)
        .filter((u) => u.isActive)
        .map((u) => ({ id: u.id, name: shownName(u.displayName), email: u.email })),
    [data],
  );
  const matching = users.filter((u) => {
    const q = userQuery.trim().toLowerCase();
    const selected = users.find((s) => s.id === form.targetUserId);
    if (!q || (selected && userQuery === selected.name)) return true;
    return u.name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q);
  });

  const set = <K extends keyof Form>(field: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [field]: value }));
    clearError(field);
  };

  const close = () => {
    setForm(EMPTY);
    setErrors({});
    setUserQuery('');
    onOpenChange(false);
  };

  const onSubmit = () => {
    const found = validateNotificationForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    commit({
      variables: {
        input: {
          title: form.title.trim(),
          message: form.message.trim(),
          type: form.type,
          targetType: form.targetType,
          targetUserId: form.targetType === 'SPECIFIC' ? form.targetUserId : null,
        },
      },
      updater: (store) => {
        const result = store.getRootField('sendNotification');
        const node = result?.getValue('__typename') === 'MutationSendNotificationSuccess' ? result.getLinkedRecord('data') : null;
        if (node == null) return;
        const visibleToViewer = node.getValue('targetType') === 'ALL' || node.getLinkedRecord('targetUser')?.getDataID() === viewerId;
        addNotification(store, node, { visibleToViewer });
      },
      onCompleted: ({ sendNotification: result }) => {
        if (result.__typename === 'MutationSendNotificationSuccess') {
          notify({ title: 'Notification sent', description: 'Your notification has been sent successfully.', intent: 'success' });
          close();
          return;
        }
        const { message, field } = failureOf(result, FIELDS);
        if (field) setErrors((e) => ({ ...e, [field]: message }));
        fail(message);
      },
      onError: () => fail(),
    });
  };

  return (
    <FormDialog open={open} title="Send Notification" submitLabel="Send" busyLabel="Sending..." busy={sending} onSubmit={onSubmit} onClose={close}>
      <Field label="Title" required {...validation('title')}>
        <Input value={form.title} onChange={(_, d) => set('title', d.value)} maxLength={200} autoFocus />
      </Field>
      <Field label="Message" required {...validation('message')}>
        <Textarea value={form.message} onChange={(_, d) => set('message', d.value)} rows={5} resize="vertical" maxLength={5000} />
      </Field>
      <div className={formStyles.row}>
        <Field label="Type">
          <Select value={form.type} onChange={(_, d) => set('type', d.value as NotificationKind)}>
            <SelectOptions options={NOTIFICATION_TYPE_OPTIONS} />
          </Select>
        </Field>
        <Field label="Send to">
          <RadioGroup layout="horizontal" value={form.targetType} onChange={(_, d) => set('targetType', d.value as Form['targetType'])}>
            <Radio value="ALL" label="All users" />
            <Radio value="SPECIFIC" label="Specific user" />
          </RadioGroup>
        </Field>
      </div>
      {form.targetType === 'SPECIFIC' ? (
        <Field label="User" required {...validation('targetUserId')}>
          <Combobox
            placeholder="Search by name or email"
            value={userQuery}
            selectedOptions={form.targetUserId ? [form.targetUserId] : []}
            onChange={(event) => setUserQuery(event.target.value)}
            onOptionSelect={(_, d) => {
              set('targetUserId', d.optionValue ?? null);
              setUserQuery(d.optionText ?? '');
            }}
          >
            {matching.length === 0 ? (
              <Option value="" text="" disabled>
                No users found
              </Option>
            ) : (
              matching.map((u) => (
                <Option key={u.id} value={u.id} text={u.name}>
                  <span className={styles.option}>
                    <span>{u.name}</span>
                    <Caption1 className={styles.email}>{u.email}</Caption1>
                  </span>
                </Option>
              ))
            )}
          </Combobox>
        </Field>
      ) : null}
    </FormDialog>
  );
}
