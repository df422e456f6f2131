import { Body1, Button, Caption1, Card, makeStyles, Title1, tokens } from '@fluentui/react-components';
import { ArrowRight20Regular, LockClosed16Regular, ShieldCheckmark48Filled } from '@fluentui/react-icons';
import { useNavigate } from 'react-router';
import { signedOutPage } from '../../components/layout/pageStyles';
import { useAuth, useSession } from '../../auth/SessionProvider';
import { lazy } from 'react';
import { OnDemand } from '../../components/layout/OnDemand';

// Shown only while a password reset is pending: its own chunk, since every first load of /
// shows this page while the session loads.
const ChangePasswordDialog = lazy(() => import('../../auth/ChangePasswordDialog').then((m) => ({ default: m.ChangePasswordDialog })));

const useStyles = makeStyles({
  page: signedOutPage,
  card: {
    width: '100%',
    maxWidth: '440px',
    boxSizing: 'border-box',
    paddingTop: tokens.spacingVerticalXXXL,
    paddingBottom: tokens.spacingVerticalXXL,
    paddingLeft: tokens.spacingHorizontalXXL,
    paddingRight: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalL,
    textAlign: 'center',
    boxShadow: tokens.shadow16,
  },
  shield: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '80px',
    height: '80px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
  },
  heading: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    textAlign: 'center',
  },
  title: {
    margin: 0,
  },
  tagline: {
    color: tokens.colorNeutralForeground2,
  },
  button: {
    width: '100%',
  },
  note: {
    display: 'flex',
    alignItems: 'flex-start',
    columnGap: tokens.spacingHorizontalS,
    paddingTop: tokens.spacingVerticalM,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    color: tokens.colorNeutralForeground3,
    textAlign: 'left',
  },
  noteIcon: {
    flexShrink: 0,
    marginTop: tokens.spacingVerticalXXS,
  },
});

/** The entry screen (SPEC §1, §2 'Landing page'); hosts the forced password change. */
export default function LandingRoute() {
  const styles = useStyles();
  const navigate = useNavigate();
  const auth = useAuth();
  const { signOut } = useSession();

  return (
    <main className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.shield} aria-hidden>
          <ShieldCheckmark48Filled />
        </div>
        <div className={styles.heading}>
          <Title1 as="h1" className={styles.title}>
            GRC Risk Management
          </Title1>
          <Body1 className={styles.tagline}>Secure access to your risk review platform</Body1>
        </div>
        <Button
          appearance="primary"
          size="large"
          className={styles.button}
          icon={<ArrowRight20Regular />}
          iconPosition="after"
          onClick={() => navigate('/internal-login')}
        >
          Sign In to Continue
        </Button>
        <div className={styles.note}>
          <LockClosed16Regular className={styles.noteIcon} aria-hidden />
          <Caption1>Authorized personnel only. Please contact your administrator for access.</Caption1>
        </div>
      </Card>
      <OnDemand open={auth.status === 'resetRequired'}>
        <ChangePasswordDialog
          open={auth.status === 'resetRequired'}
          viewer={auth.status === 'resetRequired' ? auth.viewer : null}
          required
          onCancel={() => void signOut()}
        />
      </OnDemand>
    </main>
  );
}
