import { Card, makeStyles, mergeClasses, Title2, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { centredPage } from './pageStyles';

const useStyles = makeStyles({
  page: centredPage,
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
});

/**
 * A page that only says something went wrong (not found, sign-in refused): a
 * centred card with an icon and a heading; inside the app's shell it sits at
 * the top of the content instead of filling the window.
 */
export function MessagePage({ icon, title, inShell = false, children }: { icon: ReactNode; title: string; inShell?: boolean; children: ReactNode }) {
  const styles = useStyles();
  const Root = inShell ? 'div' : 'main';
  return (
    <Root className={mergeClasses(styles.page, inShell && styles.inShell)}>
      <Card className={styles.card}>
        <div className={styles.heading}>
          {icon}
          <Title2 as="h1" className={styles.title}>
            {title}
          </Title2>
        </div>
        {children}
      </Card>
    </Root>
  );
}
