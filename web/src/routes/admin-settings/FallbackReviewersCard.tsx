import { Button, Caption1, Card, CardHeader, Checkbox, makeStyles, MessageBar, MessageBarBody, Text, tokens } from '@fluentui/react-components';
import { People24Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { FallbackReviewersCard_query$key } from '../../__generated__/FallbackReviewersCard_query.graphql';
import type { FallbackReviewersCardMutation } from '../../__generated__/FallbackReviewersCardMutation.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';

const saveMutation = graphql`
  mutation FallbackReviewersCardMutation($ids: [String!]!) {
    updateReviewSettings(input: { fallbackReviewerIds: $ids }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`;

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  list: { display: 'flex', flexDirection: 'column', maxHeight: '260px', overflowY: 'auto' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', justifyContent: 'flex-end' },
});

/**
 * Coverage: the fallback reviewers receive every in-scope row that no
 * assignment gives to anyone, and the rows routed away from reviewers as
 * their own access (self-review). Only active reviewers can be chosen; one
 * deactivated since is named, as the dashboard names it.
 */
export function FallbackReviewersCard({ query, onChanged }: { query: FallbackReviewersCard_query$key; onChanged: () => void }) {
  const styles = useStyles();
  const notify = useNotify();
  const data = useFragment(
    graphql`
      fragment FallbackReviewersCard_query on Query {
        reviewSettings {
          fallbackReviewerIds
          fallbackReviewers {
            userId
            displayName
            email
            isActive
          }
        }
        fallbackCandidates: users(first: 500, role: REVIEWER, active: true) {
          edges {
            node {
              userId
              displayName
              email
            }
          }
        }
      }
    `,
    query,
  );
  const saved = data.reviewSettings.fallbackReviewerIds;
  const [chosen, setChosen] = useState<readonly string[]>(saved);
  const [commit, saving] = useMutation<FallbackReviewersCardMutation>(saveMutation);
  const candidates = (data.fallbackCandidates?.edges ?? []).flatMap((e) => (e?.node ? [e.node] : []));
  const unable = data.reviewSettings.fallbackReviewers.filter((u) => !u.isActive);
  const changed = [...chosen].sort().join() !== [...saved].sort().join();
  const toggle = (id: string, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  const save = () =>
    commit({
      // A deactivated one still named is kept out: the server refuses to name one.
      variables: { ids: chosen.filter((id) => !unable.some((u) => u.userId === id)) },
      onCompleted: ({ updateReviewSettings: s }) => {
        const message = errorMessage(s);
        if (message) notify({ title: 'Update Failed', description: message, intent: 'error' });
        else notify({ title: 'Fallback reviewers updated', intent: 'success' });
        onChanged();
      },
      onError: (e) => notify({ title: 'Update Failed', description: thrownMessage(e) ?? 'Failed to save changes. Please try again.', intent: 'error' }),
    });
  return (
    <Card className={styles.card} aria-labelledby="fallback-reviewers-title">
      <CardHeader
        image={<People24Regular />}
        header={
          <Text weight="semibold" id="fallback-reviewers-title">
            Fallback Reviewers
          </Text>
        }
      />
      <Caption1 className={styles.muted}>
        They review every conflict that no assignment gives to a reviewer, and those routed away from reviewers as their own access (self-review).
      </Caption1>
      {unable.map((u) => (
        <MessageBar key={u.userId} intent="warning">
          <MessageBarBody>{u.displayName || u.email} is deactivated and receives nothing: choose another fallback reviewer.</MessageBarBody>
        </MessageBar>
      ))}
      <div className={styles.list} role="group" aria-label="Fallback reviewers">
        {candidates.length === 0 ? <Caption1 className={styles.muted}>No active reviewers.</Caption1> : null}
        {candidates.map((u) => (
          <Checkbox
            key={u.userId}
            label={u.displayName ? `${u.displayName} (${u.email})` : u.email}
            checked={chosen.includes(u.userId)}
            disabled={saving}
            onChange={(_, d) => toggle(u.userId, d.checked === true)}
          />
        ))}
      </div>
      <div className={styles.actions}>
        <Button appearance="primary" disabled={!changed || saving} onClick={save}>
          Save Fallback Reviewers
        </Button>
      </div>
    </Card>
  );
}
