import { Avatar, Badge, Button, Caption1, makeStyles, Spinner, TableCell, TableCellLayout, TableRow, Text, tokens, Tooltip } from '@fluentui/react-components';
import { Edit20Regular, Key20Regular, PersonAvailable20Regular, PersonProhibited20Regular } from '@fluentui/react-icons';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { UserRow_user$data, UserRow_user$key } from '../../__generated__/UserRow_user.graphql';
import type { UserRowSetActiveMutation } from '../../__generated__/UserRowSetActiveMutation.graphql';
import { shownName, initials, roleLabel } from '../../domain/users/userNames';
import { relativeTime } from '../../components/format/relativeTime';
import { fullDateTime, shortDate } from '../../components/format/dates';
import { useNotify } from '../../components/forms/toast';

const useStyles = makeStyles({
  // A name or address longer than the User column (one long word, say) breaks inside its cell
  // instead of running over the Role badge beside it; the cell's text may shrink below its
  // longest word for that (a flex item does not by default).
  shrinkable: { minWidth: 0 },
  name: {
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1,
    overflowWrap: 'anywhere',
  },
  email: {
    color: tokens.colorNeutralForeground3,
    overflowWrap: 'anywhere',
  },
  muted: {
    color: tokens.colorNeutralForeground3,
  },
  actions: {
    display: 'flex',
    columnGap: tokens.spacingHorizontalXXS,
  },
  danger: {
    color: tokens.colorPaletteRedForeground1,
  },
  success: {
    color: tokens.colorPaletteGreenForeground1,
  },
});

const setActiveMutation = graphql`
  mutation UserRowSetActiveMutation($id: ID!, $active: Boolean!) {
    setUserActive(id: $id, active: $active) {
      __typename
      ... on MutationSetUserActiveSuccess {
        data {
          id
          isActive
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

export type UserRowProps = {
  user: UserRow_user$key;
  isSelf: boolean;
  onEdit: () => void;
  onResetPassword: () => void;
};

/** A dash where there is no value (SPEC §2: Assigned Risks and Last Login). */
const DASH = '—';

export function lastLoginText(user: Pick<UserRow_user$data, 'lastLoginAt'>): string {
  return user.lastLoginAt ? relativeTime(user.lastLoginAt) : DASH;
}

/** One row of the User Management table (SPEC §2). */
export function UserRow({ user, isSelf, onEdit, onResetPassword }: UserRowProps) {
  const u = useFragment(
    graphql`
      fragment UserRow_user on User {
        id
        firstName
        lastName
        displayName
        email
        role
        isActive
        createdAt
        lastLoginAt
      }
    `,
    user,
  );
  const styles = useStyles();
  const notify = useNotify();
  const [commit, inFlight] = useMutation<UserRowSetActiveMutation>(setActiveMutation);
  const name = shownName(u.displayName);

  const setActive = (active: boolean) => {
    const failTitle = active ? 'Activation Failed' : 'Deactivation Failed';
    const fail = (message?: string) =>
      notify({ title: failTitle, description: message || `Failed to ${active ? 'activate' : 'deactivate'} user`, intent: 'error' });
    commit({
      variables: { id: u.id, active },
      onCompleted: ({ setUserActive: result }) => {
        if (result.__typename === 'MutationSetUserActiveSuccess') {
          notify({
            title: active ? 'User Activated' : 'User Deactivated',
            description: active ? `${name} can sign in again.` : `${name} can no longer sign in; their sessions have been ended.`,
            intent: 'success',
          });
        } else {
          fail('message' in result ? result.message : undefined);
        }
      },
      onError: () => fail(),
    });
  };

  return (
    <TableRow>
      <TableCell>
        <TableCellLayout
          className={styles.shrinkable}
          content={{ className: styles.shrinkable }}
          media={<Avatar initials={initials(u.firstName, u.lastName, u.email)} name={name} color="colorful" aria-hidden />}
          description={<Caption1 className={styles.email}>{u.email}</Caption1>}
        >
          <Text className={styles.name}>{name}</Text>
        </TableCellLayout>
      </TableCell>
      <TableCell>
        <Badge appearance="tint" color={u.role === 'ADMIN' ? 'brand' : 'informative'}>
          {roleLabel(u.role)}
        </Badge>
      </TableCell>
      <TableCell>
        <Badge appearance="tint" color={u.isActive ? 'success' : 'subtle'}>
          {u.isActive ? 'Active' : 'Inactive'}
        </Badge>
      </TableCell>
      <TableCell>{u.role === 'ADMIN' ? 'All Risks' : <span className={styles.muted}>{DASH}</span>}</TableCell>
      <TableCell>
        {u.lastLoginAt ? (
          <time dateTime={u.lastLoginAt} title={fullDateTime(u.lastLoginAt)}>
            {lastLoginText(u)}
          </time>
        ) : (
          <span className={styles.muted} title="Never signed in">
            {DASH}
          </span>
        )}
      </TableCell>
      <TableCell>
        <time dateTime={u.createdAt} title={fullDateTime(u.createdAt)}>
          {shortDate(u.createdAt)}
        </time>
      </TableCell>
      <TableCell>
        <div className={styles.actions}>
          <Tooltip content="Edit" relationship="inaccessible">
            <Button aria-label="Edit" appearance="subtle" icon={<Edit20Regular />} onClick={onEdit} />
          </Tooltip>
          <Tooltip content="Reset Password" relationship="inaccessible">
            <Button aria-label="Reset Password" appearance="subtle" icon={<Key20Regular />} onClick={onResetPassword} />
          </Tooltip>
          {u.isActive && !isSelf ? (
            <Tooltip content="Deactivate" relationship="inaccessible">
              <Button
                aria-label="Deactivate"
                appearance="subtle"
                icon={inFlight ? <Spinner size="extra-tiny" /> : <PersonProhibited20Regular className={styles.danger} />}
                onClick={() => setActive(false)}
                disabled={inFlight}
              />
            </Tooltip>
          ) : null}
          {!u.isActive ? (
            <Tooltip content="Activate" relationship="inaccessible">
              <Button
                aria-label="Activate"
                appearance="subtle"
                icon={inFlight ? <Spinner size="extra-tiny" /> : <PersonAvailable20Regular className={styles.success} />}
                onClick={() => setActive(true)}
                disabled={inFlight}
              />
            </Tooltip>
          ) : null}
        </div>
      </TableCell>
    </TableRow>
  );
}
