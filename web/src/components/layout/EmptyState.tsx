import { Body1, makeStyles, mergeClasses, Subtitle2, tokens } from '@fluentui/react-components';
import type { ReactElement, ReactNode } from 'react';
import { IconTile } from './IconTile';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: tokens.spacingHorizontalXXL,
  },
  subtle: { color: tokens.colorNeutralForeground3 },
  brand: { rowGap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
});

export type EmptyStateProps = {
  icon: ReactElement;
  /** The heading: a level-2 or level-3 heading of the page. */
  title: string;
  heading: 'h2' | 'h3';
  description: ReactNode;
  /** A button that starts what the state lacks (the brand form has one). */
  action?: ReactNode;
  /**
   * `subtle` (default): all in the muted colour, the icon bare unless
   * `framed`. `brand`: a call to action, the heading in full colour, the
   * icon in a brand-coloured disc, more room between the lines.
   */
  appearance?: 'subtle' | 'brand';
  /** With `subtle`: the icon in a neutral disc. */
  framed?: boolean;
  className?: string;
};

/** What a screen or list shows when it has nothing to show: an icon, a heading and a line of text, centred. */
export function EmptyState({ icon, title, heading, description, action, appearance = 'subtle', framed = false, className }: EmptyStateProps) {
  const styles = useStyles();
  const brand = appearance === 'brand';
  return (
    <div className={mergeClasses(styles.root, brand ? styles.brand : styles.subtle, className)}>
      {brand || framed ? (
        <IconTile size="disc" tone={brand ? 'brand' : 'neutral'}>
          {icon}
        </IconTile>
      ) : (
        icon
      )}
      <Subtitle2 as={heading}>{title}</Subtitle2>
      <Body1 className={brand ? styles.muted : undefined}>{description}</Body1>
      {action}
    </div>
  );
}
