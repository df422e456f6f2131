import { makeStyles, mergeClasses, tokens, typographyStyles } from '@fluentui/react-components';
import { ChevronDownRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';

/*
 * Fluent's Select (outline appearance, medium size) as it draws, without its
 * chunk: Fluent's Select is a native <select> in a span with a chevron, and
 * brings every appearance, size and the Field plumbing (3.5 KB br) into the
 * first load of any screen that shows one. Where one sits on a screen's first
 * paint (the dashboard's trend period), this draws the same elements, classes
 * and styles (the values of @fluentui/react-select's useSelectStyles) for the
 * one look used. Keyboard and screen-reader use are the browser's <select>'s,
 * as with Fluent's.
 */
const useStyles = makeStyles({
  root: {
    alignItems: 'center',
    boxSizing: 'border-box',
    display: 'flex',
    flexWrap: 'nowrap',
    fontFamily: tokens.fontFamilyBase,
    position: 'relative',
    // The focus underline.
    '::after': {
      backgroundImage: `linear-gradient(0deg, ${tokens.colorCompoundBrandStroke} 0%, ${tokens.colorCompoundBrandStroke} 50%, transparent 50%, transparent 100%)`,
      borderRadius: `0 0 ${tokens.borderRadiusMedium} ${tokens.borderRadiusMedium}`,
      boxSizing: 'border-box',
      content: '""',
      height: tokens.borderRadiusMedium,
      position: 'absolute',
      bottom: 0,
      left: 0,
      right: 0,
      transform: 'scaleX(0)',
      transitionProperty: 'transform',
      transitionDuration: tokens.durationUltraFast,
      '@media screen and (prefers-reduced-motion: reduce)': { transitionDuration: '0.01ms', transitionDelay: '0.01ms' },
    },
    ':focus-within::after': {
      transform: 'scaleX(1)',
      transitionProperty: 'transform',
      transitionDuration: tokens.durationNormal,
      '@media screen and (prefers-reduced-motion: reduce)': { transitionDuration: '0.01ms', transitionDelay: '0.01ms' },
    },
  },
  select: {
    appearance: 'none',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderBottomColor: tokens.colorNeutralStrokeAccessible,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: 'none',
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    cursor: 'pointer',
    flexGrow: 1,
    maxWidth: '100%',
    paddingTop: 0,
    paddingBottom: 0,
    height: '32px',
    paddingLeft: `calc(${tokens.spacingHorizontalMNudge} + ${tokens.spacingHorizontalXXS})`,
    paddingRight: `calc(${tokens.spacingHorizontalMNudge} + 20px + ${tokens.spacingHorizontalXXS} + ${tokens.spacingHorizontalXXS})`,
    ...typographyStyles.body1,
    ':focus': { outlineWidth: '2px', outlineStyle: 'solid', outlineColor: 'transparent' },
  },
  interactive: {
    ':hover': {
      borderTopColor: tokens.colorNeutralStroke1Hover,
      borderRightColor: tokens.colorNeutralStroke1Hover,
      borderLeftColor: tokens.colorNeutralStroke1Hover,
      borderBottomColor: tokens.colorNeutralStrokeAccessible,
    },
    ':active': {
      borderTopColor: tokens.colorNeutralStroke1Pressed,
      borderRightColor: tokens.colorNeutralStroke1Pressed,
      borderLeftColor: tokens.colorNeutralStroke1Pressed,
      borderBottomColor: tokens.colorNeutralStrokeAccessible,
    },
  },
  disabled: {
    backgroundColor: tokens.colorTransparentBackground,
    borderTopColor: tokens.colorNeutralStrokeDisabled,
    borderRightColor: tokens.colorNeutralStrokeDisabled,
    borderLeftColor: tokens.colorNeutralStrokeDisabled,
    borderBottomColor: tokens.colorNeutralStrokeDisabled,
    color: tokens.colorNeutralForegroundDisabled,
    cursor: 'not-allowed',
    '@media (forced-colors: active)': {
      borderTopColor: 'GrayText',
      borderRightColor: 'GrayText',
      borderLeftColor: 'GrayText',
      borderBottomColor: 'GrayText',
    },
  },
  icon: {
    boxSizing: 'border-box',
    color: tokens.colorNeutralStrokeAccessible,
    display: 'block',
    position: 'absolute',
    pointerEvents: 'none',
    '& svg': { display: 'block' },
    fontSize: '20px',
    height: '20px',
    right: tokens.spacingHorizontalMNudge,
    width: '20px',
  },
  iconDisabled: {
    color: tokens.colorNeutralForegroundDisabled,
    '@media (forced-colors: active)': { color: 'GrayText' },
  },
});

export function NativeSelect({
  value,
  disabled,
  onChange,
  children,
  'aria-label': ariaLabel,
}: {
  value: string;
  disabled?: boolean;
  onChange: (value: string) => void;
  children: ReactNode;
  'aria-label': string;
}) {
  const styles = useStyles();
  return (
    <span className={mergeClasses('fui-Select', styles.root)}>
      <select
        aria-label={ariaLabel}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className={mergeClasses('fui-Select__select', styles.select, !disabled && styles.interactive, disabled && styles.disabled)}
      >
        {children}
      </select>
      <span className={mergeClasses('fui-Select__icon', styles.icon, disabled && styles.iconDisabled)}>
        <ChevronDownRegular />
      </span>
    </span>
  );
}
