import { Caption1, CardHeader, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import type { ReactElement } from 'react';

/** The classes the Data Upload cards share. */
export const useUploadCardStyles = makeStyles({
  /** A card whose sections stack with the card's own padding (the form and the status card). */
  card: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXL,
    minWidth: 0,
  },
  muted: {
    color: tokens.colorNeutralForeground3,
  },
});

const useStyles = makeStyles({
  icon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '36px',
    height: '36px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
  },
  heading: {
    margin: 0,
  },
});

export type UploadCardHeaderProps = {
  /** A 20 px icon, shown on a brand tile. */
  icon: ReactElement;
  /** The card's level-2 heading. */
  title: string;
  description: string;
  /** Shown at the end of the header (a badge, a refresh indicator). */
  action?: ReactElement;
  className?: string;
};

/** The header of a Data Upload card: icon tile, heading, one-line description, optional action. */
export function UploadCardHeader({ icon, title, description, action, className }: UploadCardHeaderProps) {
  const styles = useStyles();
  const shared = useUploadCardStyles();
  return (
    <CardHeader
      className={className}
      image={
        <span className={styles.icon} aria-hidden>
          {icon}
        </span>
      }
      header={
        <Subtitle2 as="h2" className={styles.heading}>
          {title}
        </Subtitle2>
      }
      description={<Caption1 className={shared.muted}>{description}</Caption1>}
      action={action}
    />
  );
}
