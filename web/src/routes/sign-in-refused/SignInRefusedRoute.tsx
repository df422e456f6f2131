import { Body1, Link, makeStyles, tokens } from '@fluentui/react-components';
import { PersonProhibited24Regular } from '@fluentui/react-icons';
import { useSearchParams } from 'react-router';
import { SSO_LOGIN_URL } from '../../auth/sso';
import { MessagePage } from '../../components/layout/MessagePage';

const useStyles = makeStyles({
  links: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
  },
});

/** The server's refusal reasons (api/src/auth/oidc.ts, RefusalReason) and what they mean to the person. */
const MESSAGES: Record<string, string> = {
  unknown: 'Your identity provider signed you in, but there is no account for you on this platform. Please contact your administrator for access.',
  unverified: 'Your identity provider did not confirm your email address, so it cannot be matched to an account. Please contact your administrator.',
  deactivated: 'Your account has been deactivated. Please contact your administrator for assistance.',
  failed: 'The sign-in could not be completed: it may have expired or been started in another window. Please try again.',
  unavailable: 'The sign-in service cannot be reached right now. Please try again later, or use the internal login.',
};

/** Where single sign-on sends a person it could not sign in (GET /api/auth/callback). */
export default function SignInRefusedRoute() {
  const styles = useStyles();
  const [params] = useSearchParams();
  const reason = params.get('reason') ?? 'failed';
  const retry = reason === 'failed' || reason === 'unavailable';
  return (
    <MessagePage icon={<PersonProhibited24Regular aria-hidden />} title="Sign-in refused">
      <Body1>{MESSAGES[reason] ?? MESSAGES.failed}</Body1>
      <div className={styles.links}>
        <Link href="/internal-login">Go to the internal login</Link>
        {retry ? <Link href={SSO_LOGIN_URL}>Try single sign-on again</Link> : null}
      </div>
    </MessagePage>
  );
}
