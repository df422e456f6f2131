import { tokens, type GriffelStyle } from '@fluentui/react-components';

/** A page that centres its one card in the window (messages, the signed-out pages). */
export const centredPage: GriffelStyle = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  minHeight: '100vh',
  boxSizing: 'border-box',
  padding: tokens.spacingHorizontalL,
  backgroundColor: tokens.colorNeutralBackground2,
};

/** The signed-out pages (landing, internal login): centred, on the brand's gradient. */
export const signedOutPage: GriffelStyle = {
  ...centredPage,
  backgroundImage: `linear-gradient(160deg, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground2} 55%)`,
};

/**
 * A button whose action destroys data (purge, delete, revoke): red, not the brand colour of
 * the screen's main action, so it is not pressed by habit. Put it with `appearance="primary"`
 * and only while the button is enabled (Fluent's disabled look stays).
 */
export const dangerButton: GriffelStyle = {
  backgroundColor: tokens.colorPaletteRedBackground3,
  color: tokens.colorNeutralForegroundOnBrand,
  ':hover': {
    backgroundColor: tokens.colorPaletteRedForeground1,
    color: tokens.colorNeutralForegroundOnBrand,
  },
  ':hover:active': {
    backgroundColor: tokens.colorPaletteRedForeground2,
    color: tokens.colorNeutralForegroundOnBrand,
  },
};
