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
