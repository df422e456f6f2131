// 'Change' on a decided row: a small menu button offering the other
// decisions, the current one shown but disabled. My Assigned Risks' rows
// (Retain / Remove) and a later stage's rows (Confirm / Overturn) give it
// their items.
import type { ReactElement } from 'react';
import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { ChevronDown16Regular } from '@fluentui/react-icons';

export type ChangeDecisionItem = {
  key: string;
  label: string;
  icon: ReactElement;
  /** The row's decision already: shown, not chosen again. */
  current: boolean;
  onSelect: () => void;
};

/** The 'Change' button of the row `label` names ('Change decision for <label>'), with its items. */
export function ChangeDecisionMenu({ label, items }: { label: string; items: readonly ChangeDecisionItem[] }) {
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" appearance="subtle" icon={<ChevronDown16Regular />} iconPosition="after" aria-label={`Change decision for ${label}`}>
          Change
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {items.map((i) => (
            <MenuItem key={i.key} icon={i.icon} disabled={i.current} onClick={i.onSelect}>
              {i.label}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
