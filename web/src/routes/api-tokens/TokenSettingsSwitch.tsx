import { Caption1, Card, makeStyles, mergeClasses, Switch, tokens } from '@fluentui/react-components';
import { graphql, useFragment, useMutation } from 'react-relay';
import type { TokenSettingsSwitch_settings$key } from '../../__generated__/TokenSettingsSwitch_settings.graphql';
import type { TokenSettingsSwitchMutation } from '../../__generated__/TokenSettingsSwitchMutation.graphql';
import { errorMessage, thrownMessage } from '../../components/forms/mutationResult';
import { useNotify } from '../../components/forms/toast';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
  },
  hint: {
    color: tokens.colorNeutralForeground3,
    paddingLeft: tokens.spacingHorizontalS,
  },
});

const mutation = graphql`
  mutation TokenSettingsSwitchMutation($value: Boolean!) {
    setApiTokenSettings(usersMayCreateTokens: $value) {
      __typename
      ... on MutationSetApiTokenSettingsSuccess {
        data {
          usersMayCreateTokens
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** Administrators: whether every signed-in user may create their own tokens. */
export function TokenSettingsSwitch({ settings, className }: { settings: TokenSettingsSwitch_settings$key; className?: string }) {
  const data = useFragment(
    graphql`
      fragment TokenSettingsSwitch_settings on ApiTokenSettings {
        usersMayCreateTokens
      }
    `,
    settings,
  );
  const styles = useStyles();
  const notify = useNotify();
  const [commit, inFlight] = useMutation<TokenSettingsSwitchMutation>(mutation);

  const change = (value: boolean) => {
    const fail = (message?: string) => notify({ title: 'Update Failed', description: message || 'Failed to change the setting', intent: 'error' });
    commit({
      variables: { value },
      // The settings are not a node: write the new value where the page reads it.
      updater: (store, response) => {
        const r = response?.setApiTokenSettings;
        if (r?.__typename !== 'MutationSetApiTokenSettingsSuccess' || !r.data) return;
        store.getRoot().getLinkedRecord('apiTokenSettings')?.setValue(r.data.usersMayCreateTokens, 'usersMayCreateTokens');
      },
      onCompleted: ({ setApiTokenSettings: r }) => {
        if (r.__typename !== 'MutationSetApiTokenSettingsSuccess' || !r.data) return fail(errorMessage(r));
        notify({
          title: 'Setting Updated',
          description: r.data.usersMayCreateTokens ? 'Users may now create their own API tokens.' : 'Only administrators can create API tokens now.',
          intent: 'success',
        });
      },
      onError: (e) => fail(thrownMessage(e)),
    });
  };

  return (
    <Card className={mergeClasses(styles.card, className)}>
      <Switch label="Users may create their own tokens" checked={data.usersMayCreateTokens} disabled={inFlight} onChange={(_, d) => change(d.checked)} />
      <Caption1 className={styles.hint}>When off, only administrators create tokens. Existing tokens keep working until they expire or are revoked.</Caption1>
    </Card>
  );
}
