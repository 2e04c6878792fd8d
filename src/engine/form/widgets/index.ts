/**
 * The widget registry (STYLE rule 2): `ui:widget` names → components. rjsf's own component
 * names (`TextWidget`, `SelectWidget`, …) point here too, so fields without a `ui:widget`
 * also get the Fluent widgets; a format with a widget of its name (`stir`, `phoneNumber`,
 * `date`) gets it by default, and so does a `staffUser` field (the staff picker).
 */
import type { RegistryWidgetsType, Widget } from '@rjsf/utils';
import type { PortalWidgetName, RjsfComponentWidgetName } from './names.ts';
import { CheckboxesWidget, CheckboxWidget } from './CheckboxWidget.tsx';
import { DateTimeWidget, DateWidget } from './DateWidgets.tsx';
import { EntityChoicesWidget, EntityRefWidget, withEntityRef } from './EntityRefWidget.tsx';
import { FileWidget } from './FileWidget.tsx';
import { MapPointWidget } from './MapPointWidget.tsx';
import { MoneyWidget, MxikWidget, PhoneWidget, PinflWidget, PostIndexWidget } from './MaskedWidgets.tsx';
import { NewPasswordWidget } from './NewPasswordWidget.tsx';
import { RadioWidget, SelectWidget } from './SelectWidget.tsx';
import { StirWidget } from './StirWidget.tsx';
import {
  HiddenWidget,
  NumberWidget as PlainNumberWidget,
  TextareaWidget,
  TextWidget as PlainTextWidget,
} from './TextWidgets.tsx';
import { StaffUserWidget, withStaffUser } from './StaffUserWidget.tsx';
import { PermissionMatrixWidget } from './roles/PermissionMatrixWidget.tsx';
import { FieldRulesWidget } from './roles/FieldRulesWidget.tsx';

// A `staffUser` field (an integer user id) gets the staff picker whatever its default widget,
// and an `entityRef` id the record search — also in forms without a ui schema (an event's payload).
const NumberWidget = withEntityRef(withStaffUser(PlainNumberWidget));
const TextWidget = withStaffUser(PlainTextWidget);

/** Every widget of the theme by its `ui:widget` name (and by the format it edits); exactly the names of names.ts. */
export const portalWidgets: RegistryWidgetsType = {
  text: TextWidget,
  textarea: TextareaWidget,
  number: NumberWidget,
  money: MoneyWidget,
  select: SelectWidget,
  reference: SelectWidget,
  radio: RadioWidget,
  phone: PhoneWidget,
  phoneNumber: PhoneWidget,
  stir: StirWidget,
  pinfl: PinflWidget,
  postIndex: PostIndexWidget,
  mxik: MxikWidget,
  date: DateWidget,
  'date-time': DateTimeWidget,
  datetime: DateTimeWidget,
  checkbox: CheckboxWidget,
  checkboxes: CheckboxesWidget,
  file: FileWidget,
  mapPoint: MapPointWidget,
  entityRef: EntityRefWidget,
  entityChoices: EntityChoicesWidget,
  staffUser: StaffUserWidget,
  hidden: HiddenWidget,
  newPassword: NewPasswordWidget,
  permissionMatrix: PermissionMatrixWidget,
  fieldRules: FieldRulesWidget,
  // rjsf's default component names
  TextWidget,
  TextareaWidget,
  SelectWidget,
  RadioWidget,
  CheckboxWidget,
  CheckboxesWidget,
  DateWidget,
  DateTimeWidget,
  HiddenWidget,
  UpDownWidget: NumberWidget,
} satisfies Record<PortalWidgetName, Widget> & Partial<Record<RjsfComponentWidgetName, Widget>>;
