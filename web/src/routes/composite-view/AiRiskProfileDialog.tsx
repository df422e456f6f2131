import {
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
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { graphql, useMutation } from 'react-relay';
import type { AiRiskProfileDialogMutation, AiRiskProfileDialogMutation$data } from '../../__generated__/AiRiskProfileDialogMutation.graphql';
import { errorMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';

const mutation = graphql`
  mutation AiRiskProfileDialogMutation($accessRiskId: String!, $userId: String!) {
    generateRiskProfile(accessRiskId: $accessRiskId, userId: $userId) {
      __typename
      ... on MutationGenerateRiskProfileSuccess {
        data {
          accessRiskId
          riskDescription
          riskNature
          functionAnalysis
          severityAssessment {
            level
            reasoning
            dimensions {
              dimension
              observation
              impact
            }
          }
          conclusion
          recommendedActions
          rowsUsed
          rowsTotal
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

type Profile = NonNullable<AiRiskProfileDialogMutation$data['generateRiskProfile']['data']>;

const useStyles = makeStyles({
  surface: { maxWidth: 'min(760px, calc(100vw - 32px))' },
  content: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  muted: { color: tokens.colorNeutralForeground3 },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
  table: { overflowX: 'auto' },
});

/** SPEC §2 'AI Risk Profile' dialog (reviewers): written by the AI assist from the user's rows of this risk. */
export function AiRiskProfileDialog({
  accessRiskId,
  userId,
  riskDescription,
  onClose,
}: {
  accessRiskId: string;
  userId: string;
  riskDescription: string;
  onClose: () => void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [generate, generating] = useMutation<AiRiskProfileDialogMutation>(mutation);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fail = (message?: string) => {
      const text = message || 'The AI service could not write a risk profile';
      setFailed(text);
      notify({ title: 'AI Risk Profile Failed', description: text, intent: 'error' });
    };
    generate({
      variables: { accessRiskId, userId },
      onCompleted: ({ generateRiskProfile: r }) => {
        if (r.__typename !== 'MutationGenerateRiskProfileSuccess' || !r.data) return fail(errorMessage(r));
        setProfile(r.data);
        notify({ title: 'AI Risk Profile Complete', description: `Risk profile for ${accessRiskId} is ready`, intent: 'success' });
      },
      onError: () => fail(),
    });
  }, [accessRiskId, userId, generate, notify]);

  return (
    <Dialog open onOpenChange={(_, d) => (!d.open ? onClose() : undefined)}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>AI Risk Profile</DialogTitle>
          <DialogContent className={styles.content}>
            <div className={styles.section}>
              <Subtitle2>Risk {accessRiskId}</Subtitle2>
              <Body1>{profile?.riskDescription || riskDescription}</Body1>
            </div>
            {generating ? <Spinner label="Generating risk profile..." /> : null}
            {failed ? <Body1 role="alert">{failed}</Body1> : null}
            {profile ? (
              <>
                <div className={styles.section}>
                  <Subtitle2>Nature of Risk</Subtitle2>
                  <Body1>{profile.riskNature}</Body1>
                </div>
                <div className={styles.section}>
                  <Subtitle2>Function Analysis</Subtitle2>
                  <Body1>{profile.functionAnalysis}</Body1>
                </div>
                <div className={styles.section}>
                  <Subtitle2>Risk Severity Assessment</Subtitle2>
                  <Body1>
                    Level: <strong>{profile.severityAssessment.level}</strong>
                  </Body1>
                  <Body1>{profile.severityAssessment.reasoning}</Body1>
                  <div className={styles.table}>
                    <Table size="small" aria-label="Severity dimensions">
                      <TableHeader>
                        <TableRow>
                          <TableHeaderCell>Dimension</TableHeaderCell>
                          <TableHeaderCell>Observation</TableHeaderCell>
                          <TableHeaderCell>Impact</TableHeaderCell>
                        </TableRow>
                      </TableHeader>
                      <TableBody>
                        {profile.severityAssessment.dimensions.map((d, i) => (
                          <TableRow key={i}>
                            <TableCell>{d.dimension}</TableCell>
                            <TableCell>{d.observation}</TableCell>
                            <TableCell>{d.impact}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </div>
                </div>
                <div className={styles.section}>
                  <Subtitle2>Conclusion</Subtitle2>
                  <Body1>{profile.conclusion}</Body1>
                </div>
                <div className={styles.section}>
                  <Subtitle2>Recommended Actions</Subtitle2>
                  <ul className={styles.list}>
                    {profile.recommendedActions.map((a, i) => (
                      <li key={i}>
                        <Body1>{a}</Body1>
                      </li>
                    ))}
                  </ul>
                </div>
                <Caption1 className={styles.muted}>
                  Written by the AI assist from {profile.rowsUsed} of {profile.rowsTotal} authorization rows. A recommendation only: review it before deciding.
                </Caption1>
              </>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
