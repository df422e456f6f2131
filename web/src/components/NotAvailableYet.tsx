import { Body1, Card, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { WrenchScrewdriver24Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { PageHeader } from './PageHeader';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'row',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalL,
    padding: tokens.spacingHorizontalXL,
    maxWidth: '640px',
  },
  icon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    width: '48px',
    height: '48px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
  },
  text: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXXS,
  },
  muted: {
    color: tokens.colorNeutralForeground3,
  },
});

export type NotAvailableYetProps = {
  /** The screen's title as written in the SPEC. */
  title: string;
  subtitle?: ReactNode;
};

/** A screen that is routed but not built yet: its title and a plain statement saying so. */
export function NotAvailableYet({ title, subtitle }: NotAvailableYetProps) {
  const styles = useStyles();
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <Card className={styles.card} appearance="filled-alternative">
        <div className={styles.icon} aria-hidden>
          <WrenchScrewdriver24Regular />
        </div>
        <div className={styles.text}>
          <Subtitle2>This screen is not available yet.</Subtitle2>
          <Body1 className={styles.muted}>It is being built and will appear here in a coming release.</Body1>
        </div>
      </Card>
    </>
  );
}
