import { Button, Divider, makeStyles, tokens } from '@fluentui/react-components';
import { Building20Regular } from '@fluentui/react-icons';
import { SSO_LOGIN_URL, useSsoEnabled } from './sso';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    width: '100%',
  },
  button: {
    width: '100%',
  },
});

/** 'Sign in with single sign-on', shown only when the server has an identity provider configured. */
export function SsoSignIn() {
  const styles = useStyles();
  if (!useSsoEnabled()) return null;
  return (
    <div className={styles.root}>
      <Divider>or</Divider>
      <Button as="a" href={SSO_LOGIN_URL} appearance="secondary" size="large" className={styles.button} icon={<Building20Regular />}>
        Sign in with single sign-on
      </Button>
    </div>
  );
}
