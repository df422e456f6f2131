import { Body1, Button, Card, Field, Input, Link, makeStyles, Spinner, Title2, tokens } from '@fluentui/react-components';
import { ArrowLeft16Regular, Mail20Regular, Password20Regular, PersonLock24Regular } from '@fluentui/react-icons';
import { useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { graphql, useMutation } from 'react-relay';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { signedOutPage } from '../../components/layout/pageStyles';
import type { InternalLoginRouteLoginMutation } from '../../__generated__/InternalLoginRouteLoginMutation.graphql';
import { isServerPage, safeNextPath } from '../../auth/nextPath';
import { useAuth, useSession } from '../../auth/SessionProvider';
import { SsoSignIn } from '../../auth/SsoSignIn';
import { writeStoredUser } from '../../auth/storage';
import { IconTile } from '../../components/layout/IconTile';
import { useNotify } from '../../components/forms/toast';
import { refusalOf, type Refusal } from '../../components/forms/mutationResult';

const mutation = graphql`
  mutation InternalLoginRouteLoginMutation($input: LoginInput!) {
    login(input: $input) {
      __typename
      ... on MutationLoginSuccess {
        data {
          id
          userId
          firstName
          lastName
          displayName
          email
          passwordResetRequired
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

const DEFAULT_LOGIN_ERROR = 'Please check your email and password and try again.';

/** SPEC §8, 'Login errors': told apart by the refusal's code (UNAUTHENTICATED: wrong e-mail or password; FORBIDDEN: deactivated). */
export function loginErrorMessage({ code, message }: Refusal): string {
  if (code === 'UNAUTHENTICATED') {
    return "The email or password you entered is incorrect. If you recently reset your password, make sure you're using the latest one.";
  }
  if (code === 'FORBIDDEN') return 'Your account has been deactivated. Please contact your administrator for assistance.';
  return message || DEFAULT_LOGIN_ERROR;
}

const useStyles = makeStyles({
  page: signedOutPage,
  card: {
    width: '100%',
    maxWidth: '420px',
    boxSizing: 'border-box',
    paddingTop: tokens.spacingVerticalXXL,
    paddingBottom: tokens.spacingVerticalXXL,
    paddingLeft: tokens.spacingHorizontalXXL,
    paddingRight: tokens.spacingHorizontalXXL,
    boxShadow: tokens.shadow16,
  },
  header: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    textAlign: 'center',
    marginBottom: tokens.spacingVerticalL,
  },
  title: {
    margin: 0,
  },
  subtitle: {
    color: tokens.colorNeutralForeground3,
  },
  form: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalL,
  },
  submit: {
    width: '100%',
    marginTop: tokens.spacingVerticalS,
  },
  back: {
    display: 'inline-flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalXS,
    alignSelf: 'center',
  },
});

/** SPEC §2, 'Internal login'. */
export default function InternalLoginRoute() {
  const styles = useStyles();
  const navigate = useNavigate();
  const notify = useNotify();
  const { reload } = useSession();
  const auth = useAuth();
  const [searchParams] = useSearchParams();
  // Back to the deep link that sent the user here (same-origin paths only).
  const next = safeNextPath(searchParams.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [finishing, setFinishing] = useState(false);
  // Set when this page sends a sign-in: the session then arrives through the store before `finishing`
  // is set, and only the sign-in's own navigation (to `next`) may run, not the already-signed-in redirect.
  const signingIn = useRef(false);
  // Sent here by a sign-out (session gone, deactivated): the old session may still be on screen for a moment.
  const sentBySignOut = (useLocation().state as { signedOut?: boolean } | null)?.signedOut === true;
  const [commit, inFlight] = useMutation<InternalLoginRouteLoginMutation>(mutation);
  const busy = inFlight || finishing;

  const fail = (refusal: Refusal) => notify({ title: 'Login Failed', description: loginErrorMessage(refusal), intent: 'error' });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      notify({ title: 'Missing Information', description: 'Please enter both email and password', intent: 'error' });
      return;
    }
    signingIn.current = true;
    commit({
      variables: { input: { email: email.trim(), password } },
      onCompleted: ({ login }) => {
        if (login.__typename !== 'MutationLoginSuccess') {
          fail(refusalOf(login));
          return;
        }
        const user = login.data;
        if (user == null) {
          notify({ title: 'Login Error', description: 'Invalid response from server', intent: 'error' });
          return;
        }
        setFinishing(true);
        // SPEC §4: with a required reset, the session is stored only after the change.
        // SPEC §3: the internal user's id is the stored id the REST calls take.
        if (!user.passwordResetRequired) writeStoredUser({ ...user, id: user.userId });
        reload()
          .then(() => {
            if (!user.passwordResetRequired) {
              const name = user.displayName || user.email;
              notify({ title: 'Login Successful', description: `Welcome back, ${name}`, intent: 'success' });
            }
            if (!user.passwordResetRequired && isServerPage(next)) window.location.assign(next);
            else navigate(user.passwordResetRequired ? '/' : next, { replace: true });
          })
          .catch((error: unknown) => fail({ message: error instanceof Error ? error.message : undefined }))
          .finally(() => setFinishing(false));
      },
      onError: (error) => fail({ message: error.message }),
    });
  };

  const goHome = (event: MouseEvent) => {
    event.preventDefault();
    navigate('/');
  };

  // Already signed in, the sign-in page goes to the dashboard (or the link asked for).
  if (auth.status === 'signedIn' && !finishing && !signingIn.current && !sentBySignOut) {
    if (isServerPage(next)) {
      window.location.assign(next);
      return null;
    }
    return <Navigate to={next} replace />;
  }

  return (
    <main className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.header}>
          <IconTile size="disc" tone="brandStrong">
            <PersonLock24Regular />
          </IconTile>
          <Title2 as="h1" className={styles.title}>
            Internal User Login
          </Title2>
          <Body1 className={styles.subtitle}>Sign in with your email and password</Body1>
        </div>
        <form className={styles.form} onSubmit={onSubmit} noValidate>
          <Field label="Email">
            <Input
              type="email"
              name="email"
              autoComplete="username"
              placeholder="you@company.com"
              contentBefore={<Mail20Regular aria-hidden />}
              value={email}
              onChange={(_, d) => setEmail(d.value)}
              autoFocus
            />
          </Field>
          <Field label="Password">
            <Input
              type="password"
              name="password"
              autoComplete="current-password"
              contentBefore={<Password20Regular aria-hidden />}
              value={password}
              onChange={(_, d) => setPassword(d.value)}
            />
          </Field>
          <Button appearance="primary" size="large" type="submit" className={styles.submit} disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined}>
            {busy ? 'Signing In...' : 'Sign In'}
          </Button>
          <SsoSignIn />
          <Link href="/" onClick={goHome} className={styles.back}>
            <ArrowLeft16Regular aria-hidden />
            Back to home
          </Link>
        </form>
      </Card>
    </main>
  );
}
