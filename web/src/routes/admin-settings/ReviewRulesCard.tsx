import { Caption1, Card, CardHeader, makeStyles, Switch, Text, tokens } from '@fluentui/react-components';
import { TaskListSquareLtr24Regular } from '@fluentui/react-icons';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { ReviewRulesCard_rules$key } from '../../__generated__/ReviewRulesCard_rules.graphql';
import type { ReviewRulesCardMutation } from '../../__generated__/ReviewRulesCardMutation.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';

const saveMutation = graphql`
  mutation ReviewRulesCardMutation($requireRemovalComment: Boolean, $allowBulkApproval: Boolean) {
    saveReviewRules(requireRemovalComment: $requireRemovalComment, allowBulkApproval: $allowBulkApproval) {
      __typename
      ... on Error {
        message
      }
    }
  }
`;

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The review rules the server enforces on every decision (a removal's comment, decisions by filter). */
export function ReviewRulesCard({ rules, onChanged }: { rules: ReviewRulesCard_rules$key; onChanged: () => void }) {
  const styles = useStyles();
  const notify = useNotify();
  const r = useFragment(
    graphql`
      fragment ReviewRulesCard_rules on ReviewRules {
        requireRemovalComment
        allowBulkApproval
      }
    `,
    rules,
  );
  const [commit, saving] = useMutation<ReviewRulesCardMutation>(saveMutation);
  const save = (variables: ReviewRulesCardMutation['variables']) =>
    commit({
      variables,
      onCompleted: ({ saveReviewRules: s }) => {
        const message = errorMessage(s);
        if (message) notify({ title: 'Update Failed', description: message, intent: 'error' });
        else notify({ title: 'Review rules updated', intent: 'success' });
        onChanged();
      },
      onError: (e) => notify({ title: 'Update Failed', description: thrownMessage(e) ?? 'Failed to save changes. Please try again.', intent: 'error' }),
    });
  return (
    <Card className={styles.card}>
      <CardHeader image={<TaskListSquareLtr24Regular />} header={<Text weight="semibold">Review Rules</Text>} />
      <Switch
        label="Require a comment for removals"
        checked={r.requireRemovalComment}
        disabled={saving}
        onChange={(_, d) => save({ requireRemovalComment: d.checked })}
      />
      <Switch
        label="Allow deciding all matching risks at once"
        checked={r.allowBulkApproval}
        disabled={saving}
        onChange={(_, d) => save({ allowBulkApproval: d.checked })}
      />
      <Caption1 className={styles.muted}>A mitigation always needs a comment. Decisions on all matching risks are marked as bulk in the audit trail.</Caption1>
    </Card>
  );
}
