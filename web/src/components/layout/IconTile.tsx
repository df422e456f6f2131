import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  tile: { display: 'flex', alignItems: 'center', justifyContent: 'center' },
  // Beside a figure (stat tiles): a rounded square that does not shrink.
  small: { flexShrink: 0, width: '40px', height: '40px', borderRadius: tokens.borderRadiusMedium },
  medium: { flexShrink: 0, width: '44px', height: '44px', borderRadius: tokens.borderRadiusLarge },
  // Over a heading (a card's, an empty list's): a disc.
  disc: { width: '56px', height: '56px', borderRadius: tokens.borderRadiusCircular },
  brand: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorBrandForeground2 },
  brandStrong: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorBrandForeground1 },
  danger: { backgroundColor: tokens.colorPaletteRedBackground1, color: tokens.colorPaletteRedForeground1 },
  warning: { backgroundColor: tokens.colorPaletteYellowBackground1, color: tokens.colorPaletteMarigoldForeground2 },
  success: { backgroundColor: tokens.colorPaletteGreenBackground1, color: tokens.colorPaletteGreenForeground1 },
  orange: { backgroundColor: tokens.colorPaletteDarkOrangeBackground1, color: tokens.colorPaletteDarkOrangeForeground1 },
  neutral: { backgroundColor: tokens.colorNeutralBackground3, color: tokens.colorNeutralForeground2 },
});

export type IconTone = 'brand' | 'brandStrong' | 'danger' | 'warning' | 'success' | 'orange' | 'neutral';

/** A large icon on a tinted tile (decorative: hidden from assistive technology). */
export function IconTile({ tone, size, children }: { tone: IconTone; size: 'small' | 'medium' | 'disc'; children: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.tile, styles[size], styles[tone])} aria-hidden>
      {children}
    </div>
  );
}
