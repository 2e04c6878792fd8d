import type { FluentIcon } from '@fluentui/react-icons';
import {
  BoxMultipleRegular,
  BuildingRegular,
  DataBarVerticalRegular,
  DocumentBulletListRegular,
  GavelRegular,
  HomeRegular,
  MegaphoneRegular,
  PillRegular,
  ShieldCheckmarkRegular,
  AppsListRegular,
  PeopleRegular,
  ChatRegular,
  OrganizationRegular,
  SendRegular,
  SearchRegular,
  CalendarLtrRegular,
  DatabaseRegular,
  QuestionCircleRegular,
  AlertRegular,
  PlugConnectedRegular,
  HeartPulseRegular,
  ArrowSyncRegular,
} from '@fluentui/react-icons';
import type { MenuIconName } from '../../shared/icon-names.ts';

/**
 * Menu icons by the names screens use (`menu.icon`). Named here rather than imported
 * dynamically so the bundle carries only these; an unknown name gets the default icon.
 */
const icons: Record<string, FluentIcon> = {
  BoxMultiple: BoxMultipleRegular,
  Building: BuildingRegular,
  DataBarVertical: DataBarVerticalRegular,
  DocumentBulletList: DocumentBulletListRegular,
  Gavel: GavelRegular,
  Home: HomeRegular,
  Megaphone: MegaphoneRegular,
  Pill: PillRegular,
  ShieldCheckmark: ShieldCheckmarkRegular,
  People: PeopleRegular,
  Chat: ChatRegular,
  Organization: OrganizationRegular,
  Send: SendRegular,
  Search: SearchRegular,
  Calendar: CalendarLtrRegular,
  Database: DatabaseRegular,
  QuestionCircle: QuestionCircleRegular,
  Alert: AlertRegular,
  PlugConnected: PlugConnectedRegular,
  HeartPulse: HeartPulseRegular,
  ArrowSync: ArrowSyncRegular,
} satisfies Record<MenuIconName, FluentIcon>;

export const menuIcon = (name: string | undefined): FluentIcon => (name && icons[name]) || AppsListRegular;
