/**
 * The menu icons screens may name (`menu.icon` of screens/*.json): a plain list, so
 * `npm run check` knows them without importing React; the shell's icon map
 * (src/app/shell/icons.tsx) has exactly these keys.
 */
export const MENU_ICON_NAMES = [
  'BoxMultiple',
  'Building',
  'DataBarVertical',
  'DocumentBulletList',
  'Gavel',
  'Home',
  'Megaphone',
  'Pill',
  'ShieldCheckmark',
  'People',
  'Chat',
  'Organization',
  'Send',
  'Search',
  'Calendar',
  'Database',
  'QuestionCircle',
  'Alert',
  'PlugConnected',
  'HeartPulse',
  'ArrowSync',
] as const;

/** A menu icon name. */
export type MenuIconName = (typeof MENU_ICON_NAMES)[number];
