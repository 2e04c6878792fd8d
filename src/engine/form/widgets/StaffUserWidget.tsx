/**
 * A staff member chosen by name: for a field marked `staffUser: true` (an integer user id —
 * an executor, a signer), with or without `ui:widget: "staffUser"`. Typing searches the staff
 * directory (`GET /api/staff-users?search=`: staff users who may sign in, from the staff
 * cards access.json names) and each choice reads "Last First Middle — unit"; the user
 * id is stored. A stored id is shown by its name (read-only pages too), never as a number.
 */
import { useState } from 'react';
import { Input } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import type { WidgetProps } from '@rjsf/utils';
import type { DataProvider } from '../../../client/data-provider.ts';
import { formContextOf } from '../context.ts';
import { useTranslator } from '../useTranslator.ts';
import { SearchPicker } from './SearchPicker.tsx';

/** A staff user as the directory answers. */
export interface StaffUserOption {
  id: number;
  name: string;
  unit: string | null;
}

/** "Last First Middle — unit". */
export const staffUserLabel = (u: StaffUserOption): string => (u.unit ? `${u.name} — ${u.unit}` : u.name);

/** The staff users of these ids (names for stored values). */
export const fetchStaffUsers = async (dp: DataProvider, ids: number[]): Promise<StaffUserOption[]> =>
  ids.length ? (await dp.call<{ list: StaffUserOption[] }>('GET', '/api/staff-users', { ids: ids.join(',') })).list : [];

/** One staff user for an integer field (see the file comment). */
export function StaffUserWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, onFocus, registry } = props;
  const { dataProvider } = formContextOf(registry);
  const i18n = useTranslator();
  const [text, setText] = useState<string | undefined>(undefined);
  const current = typeof value === 'number' ? value : undefined;
  const chosen = useQuery({
    queryKey: ['staff-users', 'ids', current ?? 0],
    queryFn: async () => (await fetchStaffUsers(dataProvider, [current!]))[0] ?? null,
    enabled: current !== undefined,
    staleTime: 60_000,
  });
  // Until the name arrives (or for an id that is no longer staff): the bare number, marked.
  const chosenLabel = current === undefined ? '' : chosen.data ? staffUserLabel(chosen.data) : `#${current}`;
  const typed = (text ?? '').trim();
  const found = useQuery({
    queryKey: ['staff-users', 'search', typed],
    queryFn: async () => (await dataProvider.call<{ list: StaffUserOption[] }>('GET', '/api/staff-users', { search: typed, limit: 20 })).list,
    enabled: text !== undefined && typed.length > 0,
    staleTime: 30_000,
  });

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
export function withStaffUser(Widget: (props: WidgetProps) => React.ReactElement): (props: WidgetProps) => React.ReactElement {
  const StaffOr = (props: WidgetProps) => ((props.schema as { staffUser?: unknown }).staffUser ? <StaffUserWidget {...props} /> : <Widget {...props} />);
  StaffOr.displayName = `withStaffUser(${Widget.name})`;
  return StaffOr;
}
