import {
  Badge,
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Spinner,
  TableCell,
  TableCellLayout,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Delete20Regular, Key20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { ApiTokenRow_token$data, ApiTokenRow_token$key } from '../../__generated__/ApiTokenRow_token.graphql';
import type { ApiTokenRowRevokeMutation } from '../../__generated__/ApiTokenRowRevokeMutation.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { relativeTime } from '../../components/format/relativeTime';
import { fullDateTime, shortDate } from '../../components/format/dates';
import { shownName } from '../../domain/users/userNames';
import { useNotify } from '../../components/forms/toast';
import { dangerButton } from '../../components/layout/pageStyles';

const useStyles = makeStyles({
  name: {
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1,
    wordBreak: 'break-word',
  },
  muted: {
    color: tokens.colorNeutralForeground3,
  },
  prefix: {
    fontFamily: tokens.fontFamilyMonospace,
    color: tokens.colorNeutralForeground3,
  },
  danger: {
    color: tokens.colorPaletteRedForeground1,
  },
  item: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
    paddingTop: tokens.spacingVerticalM,
    paddingBottom: tokens.spacingVerticalM,
    paddingLeft: tokens.spacingHorizontalL,
    paddingRight: tokens.spacingHorizontalL,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  itemTop: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalM,
  },
  itemText: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
    minWidth: 0,
  },
  badges: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalXS,
    rowGap: tokens.spacingVerticalXS,
  },
  dangerButton,
});

const revokeMutation = graphql`
  mutation ApiTokenRowRevokeMutation($id: ID!) {
    revokeApiToken(id: $id) {
      __typename
      ... on MutationRevokeApiTokenSuccess {
        data {
          id
          revokedAt
          active
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

type Token = ApiTokenRow_token$data;

function status(t: Token): { label: string; color: 'success' | 'danger' | 'subtle' } {
  if (t.revokedAt) return { label: 'Revoked', color: 'danger' };
  if (!t.active) return { label: 'Expired', color: 'subtle' };
  return { label: 'Active', color: 'success' };
}

function lastUsed(t: Token): string {
  if (!t.lastUsedAt) return 'Never';
  return t.lastUsedIp ? `${relativeTime(t.lastUsedAt)} from ${t.lastUsedIp}` : relativeTime(t.lastUsedAt);
}

const SCOPE_LABEL = { READ: 'Read only', FULL: 'Full access', '%future added value': 'Unknown' } as const;

/** One API token: a table row, or on narrow screens a list item. */
export function ApiTokenRow({ token, showOwner, compact }: { token: ApiTokenRow_token$key; showOwner: boolean; compact: boolean }) {
  const t = useFragment(
    graphql`
      fragment ApiTokenRow_token on ApiToken {
        id
        name
        prefix
        scope
        createdAt
        lastUsedAt
        lastUsedIp
        expiresAt
        revokedAt
        active
        owner {
          firstName
          lastName
          displayName
          email
        }
      }
    `,
    token,
  );
  const styles = useStyles();
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const [commit, inFlight] = useMutation<ApiTokenRowRevokeMutation>(revokeMutation);
  const st = status(t);
  const owner = shownName(t.owner.displayName);

  const revoke = () => {
    const fail = (message?: string) => notify({ title: 'Revoke Failed', description: message || 'Failed to revoke the token', intent: 'error' });
    commit({
      variables: { id: t.id },
      onCompleted: ({ revokeApiToken: r }) => {
        if (r.__typename !== 'MutationRevokeApiTokenSuccess') return fail(errorMessage(r));
        setConfirming(false);
        notify({ title: 'Token Revoked', description: `'${t.name}' can no longer be used.`, intent: 'success' });
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  const revokeButton = t.active ? (
    <Button appearance="subtle" icon={<Delete20Regular className={styles.danger} />} aria-label={`Revoke token ${t.name}`} onClick={() => setConfirming(true)}>
      Revoke
    </Button>
  ) : null;

  const confirm = (
    <Dialog open={confirming} onOpenChange={(_, d) => !inFlight && setConfirming(d.open)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Revoke Token</DialogTitle>
          <DialogContent>
            <Body1>Revoke '{t.name}'? Scripts and tools using it are refused from their next request. This cannot be undone.</Body1>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={inFlight} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              className={inFlight ? undefined : styles.dangerButton}
              disabled={inFlight}
              icon={inFlight ? <Spinner size="tiny" /> : undefined}
              onClick={revoke}
            >
              Revoke
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );

  const when = (value: string | null | undefined, text: string) =>
    value ? (
      <time dateTime={value} title={fullDateTime(value)}>
        {text}
      </time>
    ) : (
      text
    );

  if (compact) {
    return (
      <li className={styles.item}>
        <div className={styles.itemTop}>
          <div className={styles.itemText}>
            <Text className={styles.name}>{t.name}</Text>
            <Caption1 className={styles.prefix}>{t.prefix}…</Caption1>
            {showOwner ? (
              <Caption1 className={styles.muted}>
                {owner} · {t.owner.email}
              </Caption1>
            ) : null}
          </div>
          <div className={styles.badges}>
            <Badge appearance="tint" color={st.color}>
              {st.label}
            </Badge>
            <Badge appearance="outline" color="informative">
              {SCOPE_LABEL[t.scope]}
            </Badge>
          </div>
        </div>
        <Caption1 className={styles.muted}>
          Created {when(t.createdAt, shortDate(t.createdAt))} · Expires {when(t.expiresAt, shortDate(t.expiresAt))}
        </Caption1>
        <Caption1 className={styles.muted}>Last used: {when(t.lastUsedAt, lastUsed(t))}</Caption1>
        {revokeButton}
        {confirm}
      </li>
    );
  }

  return (
    <TableRow>
      <TableCell>
        <TableCellLayout media={<Key20Regular aria-hidden />} description={<Caption1 className={styles.prefix}>{t.prefix}…</Caption1>}>
          <Text className={styles.name}>{t.name}</Text>
        </TableCellLayout>
      </TableCell>
      {showOwner ? (
        <TableCell>
          <TableCellLayout description={<Caption1 className={styles.muted}>{t.owner.email}</Caption1>}>{owner}</TableCellLayout>
        </TableCell>
      ) : null}
      <TableCell>
        <Badge appearance="outline" color="informative">
          {SCOPE_LABEL[t.scope]}
        </Badge>
      </TableCell>
      <TableCell>{when(t.createdAt, shortDate(t.createdAt))}</TableCell>
      <TableCell>{when(t.lastUsedAt, lastUsed(t))}</TableCell>
      <TableCell>{when(t.expiresAt, shortDate(t.expiresAt))}</TableCell>
      <TableCell>
        <Badge appearance="tint" color={st.color}>
          {st.label}
        </Badge>
      </TableCell>
      <TableCell>
        {revokeButton}
        {confirm}
      </TableCell>
    </TableRow>
  );
}
