import { Body1, makeStyles, mergeClasses, Title2, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    justifyContent: 'space-between',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    marginBottom: tokens.spacingVerticalXL,
  },
  text: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
    minWidth: 0,
  },
  title: {
    margin: 0,
    color: tokens.colorNeutralForeground1,
  },
  subtitle: {
    color: tokens.colorNeutralForeground3,
  },
});

export type PageHeaderProps = {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  className?: string;
};

/** The title row of a screen; the title is the page's level-1 heading. */
export function PageHeader({ title, subtitle, actions, className }: PageHeaderProps) {
  const styles = useStyles();
  return (
    <header className={mergeClasses(styles.root, className)}>
      <div className={styles.text}>
        <Title2 as="h1" className={styles.title}>
          {title}
        </Title2>
        {subtitle ? <Body1 className={styles.subtitle}>{subtitle}</Body1> : null}
      </div>
      {actions}
    </header>
  );
}
