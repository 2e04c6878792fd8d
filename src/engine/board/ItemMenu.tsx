/**
 * The "…" menu of a board column or card: the moves it may make (left, right, up, down — a move
 * that cannot be made is shown disabled, so the menu keeps its shape), edit or rename, delete.
 * Each item carries `data-action` for tests and scripts.
 */
import type { ReactElement } from 'react';
import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { MoreHorizontalRegular } from '@fluentui/react-icons';

/** One entry of an item menu. */
export interface ItemMenuEntry {
  action: string;
  label: string;
  icon: ReactElement;
  disabled?: boolean;
  onClick: () => void;
}

/**
 * The menu button and its entries.
 *
 * @example <ItemMenu label={t('board.cardActions', { name })} action="card-menu" entries={entries} />
 */
export function ItemMenu({ label, action, entries }: { label: string; action: string; entries: ItemMenuEntry[] }) {
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          size="small"
          icon={<MoreHorizontalRegular />}
          aria-label={label}
          data-action={action}
        />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {entries.map((e) => (
            <MenuItem key={e.action} icon={e.icon} disabled={e.disabled} data-action={e.action} onClick={e.onClick}>
              {e.label}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
