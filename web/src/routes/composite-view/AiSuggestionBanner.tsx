import { Badge, Button, Caption1, makeStyles, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, tokens } from '@fluentui/react-components';
import { Sparkle20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { graphql, useMutation, useRefetchableFragment } from 'react-relay';
import type { AiSuggestionBanner_group$key } from '../../__generated__/AiSuggestionBanner_group.graphql';
import type { AiSuggestionBannerAcceptMutation } from '../../__generated__/AiSuggestionBannerAcceptMutation.graphql';
import type { AiSuggestionBannerCategorizeMutation } from '../../__generated__/AiSuggestionBannerCategorizeMutation.graphql';
import type { AiSuggestionBannerRefetchQuery } from '../../__generated__/AiSuggestionBannerRefetchQuery.graphql';
import { useAuth } from '../../auth/SessionProvider';
import { errorMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';
import { AiRiskProfileDialog } from './AiRiskProfileDialog';
import { formatDateTime } from '../../components/format/dates';

const categorizeMutation = graphql`
  mutation AiSuggestionBannerCategorizeMutation($riskId: String!) {
    categorizeRisk(riskId: $riskId) {
      __typename
      ... on MutationCategorizeRiskSuccess {
        data {
          suggestedCategory
          confidence
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const acceptMutation = graphql`
  mutation AiSuggestionBannerAcceptMutation($riskId: String!, $accepted: Boolean!) {
    decideAiSuggestion(riskId: $riskId, accepted: $accepted) {
      __typename
      ... on MutationDecideAiSuggestionSuccess {
        data {
          accepted
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const useStyles = makeStyles({
  bar: { marginLeft: tokens.spacingHorizontalXL, marginRight: tokens.spacingHorizontalM, marginBottom: tokens.spacingVerticalM },
  meta: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** SPEC §2 composite view: the AI suggested category of a risk (confidence, processed time, Accept, Reject) and the reviewers' 'AI Profile'. */
export function AiSuggestionBanner({ group }: { group: AiSuggestionBanner_group$key }) {
  const styles = useStyles();
  const notify = useNotify();
  const auth = useAuth();
  const isReviewer = auth.status === 'signedIn' && auth.viewer.role === 'REVIEWER';
  const [profileOpen, setProfileOpen] = useState(false);
  const [g, refetch] = useRefetchableFragment<AiSuggestionBannerRefetchQuery, AiSuggestionBanner_group$key>(
    graphql`
      fragment AiSuggestionBanner_group on CompositeRiskGroup @refetchable(queryName: "AiSuggestionBannerRefetchQuery") {
        id
        userId
        accessRiskId
        riskDescription
        aiSuggestion {
          category
          confidence
          processedAt
          accepted
        }
      }
    `,
    group,
  );
  const [categorize, categorizing] = useMutation<AiSuggestionBannerCategorizeMutation>(categorizeMutation);
  const [decide, deciding] = useMutation<AiSuggestionBannerAcceptMutation>(acceptMutation);
  const reload = () => refetch({}, { fetchPolicy: 'network-only' });

  const suggest = () => {
    const fail = (message?: string) =>
      notify({ title: 'AI Categorization Failed', description: message || 'The AI service could not categorize this risk', intent: 'error' });
    categorize({
      variables: { riskId: g.accessRiskId },
      onCompleted: ({ categorizeRisk: r }) => {
        if (r.__typename !== 'MutationCategorizeRiskSuccess' || !r.data) return fail(errorMessage(r));
        notify({
          title: 'AI Categorization Complete',
          description: `Suggested category: ${r.data.suggestedCategory} (${Math.round(r.data.confidence * 100)}% confidence)`,
          intent: 'success',
        });
        reload();
      },
      onError: () => fail(),
    });
  };

  const accept = (accepted: boolean) => {
    const fail = (message?: string) => notify({ title: 'Update Failed', description: message || 'Failed to update the AI suggestion', intent: 'error' });
    decide({
      variables: { riskId: g.accessRiskId, accepted },
      onCompleted: ({ decideAiSuggestion: r }) => {
        if (r.__typename !== 'MutationDecideAiSuggestionSuccess') return fail(errorMessage(r));
        notify({
          title: 'AI Suggestion Updated',
          description: accepted ? 'The suggested category was accepted.' : 'The suggested category was rejected.',
          intent: 'success',
        });
        reload();
      },
      onError: () => fail(),
    });
  };

  const s = g.aiSuggestion;
  const profileButton = isReviewer ? (
    <Button size="small" icon={<Sparkle20Regular />} onClick={() => setProfileOpen(true)}>
      AI Profile
    </Button>
  ) : null;
  return (
    <>
      <MessageBar
        className={styles.bar}
        intent="info"
        layout="multiline"
        icon={<Sparkle20Regular />}
        aria-label={`AI suggested category for ${g.accessRiskId}`}
      >
        <MessageBarBody>
          {s ? (
            <>
              <MessageBarTitle>AI Suggested Category: {s.category}</MessageBarTitle>
              <span className={styles.meta}>
                <Caption1>Confidence: {Math.round(s.confidence * 100)}%</Caption1>
                {s.processedAt ? <Caption1 className={styles.muted}>Processed: {formatDateTime(s.processedAt)}</Caption1> : null}
                {s.accepted === true ? (
                  <Badge color="success" appearance="tint">
                    Accepted
                  </Badge>
                ) : null}
                {s.accepted === false ? (
                  <Badge color="danger" appearance="tint">
                    Rejected
                  </Badge>
                ) : null}
              </span>
            </>
          ) : (
            <>
              <MessageBarTitle>No AI category yet</MessageBarTitle>
              <Caption1>Ask the AI assist to suggest a category for this risk. Suggestions need your review.</Caption1>
            </>
          )}
        </MessageBarBody>
        <MessageBarActions>
          {s ? (
            <>
              <Button size="small" appearance="primary" disabled={deciding || s.accepted === true} onClick={() => accept(true)}>
                Accept
              </Button>
              <Button size="small" disabled={deciding || s.accepted === false} onClick={() => accept(false)}>
                Reject
              </Button>
            </>
          ) : (
            <Button size="small" appearance="primary" disabled={categorizing} onClick={suggest}>
              {categorizing ? 'Categorizing...' : 'Suggest Category'}
            </Button>
          )}
          {profileButton}
        </MessageBarActions>
      </MessageBar>
      {profileOpen ? (
        <AiRiskProfileDialog accessRiskId={g.accessRiskId} userId={g.userId} riskDescription={g.riskDescription} onClose={() => setProfileOpen(false)} />
      ) : null}
    </>
  );
}
