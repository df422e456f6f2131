import { Badge, Button, Caption1, Spinner, TableCell, TableRow, Text } from '@fluentui/react-components';
import { ArrowDownload20Regular } from '@fluentui/react-icons';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { RuleSetRow_ruleSet$key } from '../../__generated__/RuleSetRow_ruleSet.graphql';
import type { RuleSetRowActivateMutation } from '../../__generated__/RuleSetRowActivateMutation.graphql';
import { formatDateTime } from '../../components/format/dates';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { formatCount } from '../../components/layout/StatTile';
import { useNotify } from '../../components/forms/toast';
import { databaseIdOf } from '../../components/format/globalIds';
import { restUrl } from '../../rest/client';
import { usePanelStyles } from './panelStyles';
import { RuleSetBrowser } from './rule-set/RuleSetBrowser';

export const RULE_SET_COLUMNS = [
  { label: 'Rule Set' },
  { label: 'Version' },
  { label: 'Risks' },
  { label: 'Functions' },
  { label: 'Actions' },
  { label: 'Permissions' },
  { label: 'Uploaded' },
  { label: 'Status' },
  { label: 'Contents' },
] as const;

const activateMutation = graphql`
  mutation RuleSetRowActivateMutation($id: ID!) {
    activateAccessRuleSet(id: $id) {
      __typename
      ... on MutationActivateAccessRuleSetSuccess {
        data {
          id
          active
          versions {
            id
            active
          }
        }
      }
      ... on Error {
        message
      }
      ... on BaseError {
        code
      }
    }
  }
`;

/** One version of a rule set: its counts, who uploaded it and when, Active or an Activate button, and browsing or downloading it. */
export function RuleSetRow({ ruleSet }: { ruleSet: RuleSetRow_ruleSet$key }) {
  const styles = usePanelStyles();
  const notify = useNotify();
  const s = useFragment(
    graphql`
      fragment RuleSetRow_ruleSet on AccessRuleSet {
        id
        name
        version
        active
        risks
        functions
        actions
        permissions
        uploadedAt
        uploadedBy
      }
    `,
    ruleSet,
  );
  const [commit, inFlight] = useMutation<RuleSetRowActivateMutation>(activateMutation);
  const label = `${s.name} version ${s.version}`;
  const activate = () => {
    const fail = (message?: string) => notify({ title: 'Activation Failed', description: message || `Failed to activate ${label}`, intent: 'error' });
    commit({
      variables: { id: s.id },
      onCompleted: ({ activateAccessRuleSet: r }) => {
        if (r.__typename !== 'MutationActivateAccessRuleSetSuccess') return fail(errorMessage(r));
        notify({ title: 'Rule Set Activated', description: `${label} is now the active version.`, intent: 'success' });
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };
  return (
    <TableRow>
      <TableCell className={styles.cell}>
        <Text weight="semibold">{s.name}</Text>
      </TableCell>
      <TableCell>{s.version}</TableCell>
      <TableCell>{formatCount(s.risks)}</TableCell>
      <TableCell>{formatCount(s.functions)}</TableCell>
      <TableCell>{formatCount(s.actions)}</TableCell>
      <TableCell>{formatCount(s.permissions)}</TableCell>
      <TableCell>
        <div className={styles.stack}>
          <Text>{formatDateTime(s.uploadedAt)}</Text>
          {s.uploadedBy ? <Caption1 className={styles.muted}>{`by ${s.uploadedBy}`}</Caption1> : null}
        </div>
      </TableCell>
      <TableCell>
        {s.active ? (
          <Badge appearance="filled" color="success">
            Active
          </Badge>
        ) : (
          <Button size="small" onClick={activate} disabled={inFlight} icon={inFlight ? <Spinner size="tiny" /> : undefined} aria-label={`Activate ${label}`}>
            Activate
          </Button>
        )}
      </TableCell>
      <TableCell>
        <div className={styles.actions}>
          <RuleSetBrowser id={s.id} label={label} />
          <Button
            as="a"
            size="small"
            href={restUrl('/api/rule-sets/{id}/file', { path: { id: databaseIdOf(s.id, 'AccessRuleSet') ?? '' } })}
            download
            icon={<ArrowDownload20Regular />}
            aria-label={`Download ${label}`}
          >
            Download
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
