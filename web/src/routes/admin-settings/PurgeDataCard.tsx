import { Button, Caption1, Card, CardHeader, makeStyles, MessageBar, MessageBarBody, MessageBarTitle, Text, tokens } from '@fluentui/react-components';
import { Delete24Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { PurgeDataCardMutation } from '../../__generated__/PurgeDataCardMutation.graphql';
import { errorMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { dangerButton } from '../../components/layout/pageStyles';

const mutation = graphql`
  mutation PurgeDataCardMutation {
    purgeRiskData {
      __typename
      ... on MutationPurgeRiskDataSuccess {
        data {
          purgedAt
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
  actions: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalS },
  danger: dangerButton,
});

/** SPEC §2 Data Management: 'Purge All Risk Data', then a confirmation listing what goes. */
export function PurgeDataCard() {
  const styles = useStyles();
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const [purge, purging] = useMutation<PurgeDataCardMutation>(mutation);

  const run = () => {
    const fail = (message?: string) => notify({ title: 'Error', description: message || 'Failed to purge data', intent: 'error' });
    purge({
      variables: {},
      onCompleted: ({ purgeRiskData: r }) => {
        setConfirming(false);
        if (r.__typename !== 'MutationPurgeRiskDataSuccess') return fail(errorMessage(r));
        // Every open page (this one included) refreshes when the server announces the purge.
        notify({ title: 'All user risk data has been purged successfully', intent: 'success' });
      },
      onError: () => {
        setConfirming(false);
        fail();
      },
    });
  };

  return (
    <Card className={styles.card}>
      <CardHeader
        image={<Delete24Regular />}
        header={<Text weight="semibold">Data Management</Text>}
        description={<Caption1 className={styles.muted}>Remove all uploaded risk data and everything derived from it</Caption1>}
      />
      {!confirming ? (
        <div className={styles.actions}>
          <Button appearance="primary" className={styles.danger} icon={<Delete24Regular />} onClick={() => setConfirming(true)}>
            Purge All Risk Data
          </Button>
        </div>
      ) : (
        <MessageBar intent="error" layout="multiline" role="alert">
          <MessageBarBody>
            <MessageBarTitle>This permanently deletes:</MessageBarTitle>
            <ul className={styles.list}>
              <li>All risk definitions</li>
              <li>All simulations and analysis data</li>
              <li>All review decisions and assignments</li>
              <li>All current risk assignments</li>
            </ul>
            <Text>Users, settings, notifications, the remediation list and the audit trail are kept. This cannot be undone.</Text>
            <div className={styles.actions}>
              <Button appearance="primary" className={purging ? undefined : styles.danger} disabled={purging} onClick={run}>
                {purging ? 'Purging...' : 'Yes, Purge All Data'}
              </Button>
              <Button disabled={purging} onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </div>
          </MessageBarBody>
        </MessageBar>
      )}
    </Card>
  );
}
