import { MessageBar, MessageBarBody, MessageBarTitle, makeStyles, tokens } from '@fluentui/react-components';
import { useSyncExternalStore } from 'react';
import { getConnectionState, subscribeConnectionState } from '../relay/network';

const useStyles = makeStyles({
  bar: {
    marginTop: tokens.spacingVerticalS,
    marginLeft: tokens.spacingHorizontalL,
    marginRight: tokens.spacingHorizontalL,
  },
});

/** Shown while live updates are cut off (an instance restarting): the client reconnects and resubscribes by itself. */
export function ConnectionStatus() {
  const styles = useStyles();
  const state = useSyncExternalStore(subscribeConnectionState, getConnectionState);
  if (state !== 'reconnecting') return null;
  return (
    <MessageBar intent="warning" className={styles.bar} role="status" data-testid="connection-status">
      <MessageBarBody>
        <MessageBarTitle>Reconnecting…</MessageBarTitle>
        Live updates are paused while the connection to the server is restored.
      </MessageBarBody>
    </MessageBar>
  );
}
