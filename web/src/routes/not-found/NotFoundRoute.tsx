import { Body1, Card, makeStyles, mergeClasses, Title2, tokens } from '@fluentui/react-components';
import { ErrorCircle24Regular } from '@fluentui/react-icons';

const useStyles = makeStyles({
  page: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    minHeight: '100vh',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  inShell: {
    minHeight: 'auto',
    paddingTop: tokens.spacingVerticalXXXL,
    backgroundColor: 'transparent',
  },
  card: {
    width: '100%',
    maxWidth: '448px',
    padding: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  heading: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    color: tokens.colorPaletteRedForeground1,
  },
  title: {
    margin: 0,
    color: tokens.colorNeutralForeground1,
  },
  hint: {
    color: tokens.colorNeutralForeground3,
  },
});

/** SPEC §2: the not-found screen. */
export default function NotFoundRoute({ inShell = false }: { inShell?: boolean }) {
  const styles = useStyles();
  const Root = inShell ? 'div' : 'main';
  return (
    <Root className={mergeClasses(styles.page, inShell && styles.inShell)}>
      <Card className={styles.card}>
        <div className={styles.heading}>
          <ErrorCircle24Regular aria-hidden />
          <Title2 as="h1" className={styles.title}>
            404 Page Not Found
          </Title2>
        </div>
        <Body1 className={styles.hint}>Did you forget to add the page to the router?</Body1>
      </Card>
    </Root>
  );
}
