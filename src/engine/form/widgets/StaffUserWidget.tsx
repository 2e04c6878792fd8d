/**
 * A staff member chosen by name: for a field marked `staffUser: true` (an integer user id —
 * an executor, a signer), with or without `ui:widget: "staffUser"`. Typing searches the staff
 * directory (`GET /api/staff-users?search=`: staff users who may sign in, from the staff
 * cards access.json names) and each choice reads "Last First Middle — unit"; the user
 * id is stored. A stored id is shown by its name (read-only pages too), never as a number.
 */
import { useState } from 'react';
import { Input } from '@fluentui/react-components';
import type { WidgetProps } from '@rjsf/utils';
import type { StaffUserOption } from '../../../client/data-provider.ts';
import { useGetStaffUser, useSearchStaffUsers } from '../../../client/react/hooks.ts';
import { useTranslator } from '../useTranslator.ts';
import { SearchPicker } from './SearchPicker.tsx';

/** "Last First Middle — unit". */
export const staffUserLabel = (u: StaffUserOption): string => (u.unit ? `${u.name} — ${u.unit}` : u.name);

/** One staff user for an integer field (see the file comment). */
export function StaffUserWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, onFocus } = props;
  const i18n = useTranslator();
  const [text, setText] = useState<string | undefined>(undefined);
  const current = typeof value === 'number' ? value : undefined;
  const chosen = useGetStaffUser(current);
  // Until the name arrives (or for an id that is no longer staff): the bare number, marked.
  const chosenLabel = current === undefined ? '' : chosen.data ? staffUserLabel(chosen.data) : `#${current}`;
  const typed = (text ?? '').trim();
  const found = useSearchStaffUsers(typed, text !== undefined && typed.length > 0);

  if (readonly) return <Input id={id} readOnly value={chosenLabel} data-staff-user={current ?? ''} />;
  return (
    <SearchPicker
      id={id}
      disabled={disabled}
      placeholder={i18n.t('engine.form.searchStaff')}
      current={current}
      chosenLabel={chosenLabel}
      text={text}
      onText={setText}
      choices={(found.data ?? []).map((u) => ({ id: u.id, label: staffUserLabel(u) }))}
      fetching={found.isFetching}
      onPick={onChange}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      widget="staffUser"
      optionAttribute="data-staff-user"
    />
  );
}

/**
 * A type's default widget that hands `staffUser` fields to {@link StaffUserWidget}: a machine's
 * payload schema has no uiSchema, so the keyword alone chooses the picker.
 * @example portalWidgets.number = withStaffUser(NumberWidget)
 */
export function withStaffUser(
  Widget: (props: WidgetProps) => React.ReactElement,
): (props: WidgetProps) => React.ReactElement {
  const StaffOr = (props: WidgetProps) =>
    (props.schema as { staffUser?: unknown }).staffUser ? <StaffUserWidget {...props} /> : <Widget {...props} />;
  StaffOr.displayName = `withStaffUser(${Widget.name})`;
  return StaffOr;
}
