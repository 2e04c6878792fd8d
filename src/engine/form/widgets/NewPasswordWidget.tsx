import { lazy, Suspense, useContext, useSyncExternalStore } from 'react';
import { Input, makeStyles } from '@fluentui/react-components';
import type { WidgetProps } from '@rjsf/utils';
import type { PasswordIdentity } from '../../../shared/password-policy.ts';
import { formContextOf, ServerErrorsContext, useFieldPath, useParentObject } from '../context.ts';
import { pathToPointer } from '../pointer.ts';

/** `ui:options.identity`: which fields hold the person's identifiers, by name. */
interface IdentityOption {
  username?: string;
  email?: string;
  login?: string;
  related?: string[];
}

// The meter (and through it zxcvbn) is fetched when a new-password field first shows: every
// form screen has this widget in its registry, few ever render it.
const PasswordMeter = lazy(() => import('../../common/PasswordMeter.tsx').then((m) => ({ default: m.PasswordMeter })));

const useStyles = makeStyles({ input: { width: '100%' } });

const identityOption = (value: unknown): IdentityOption =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as IdentityOption) : {};

/**
 * A new password (`ui:widget: newPassword`): a password input (`autocomplete=new-password`)
 * with the strength meter under it. `ui:options.identity` names the fields of the person —
 * `{username, email, login, related: [...]}` — looked up among the field's siblings, then in
 * the values around the form (a flow's earlier steps, the record of a dialog), so the meter
 * applies the same password policy the server will (src/shared/password-policy.ts).
 * @example "password": { "ui:widget": "newPassword", "ui:options": { "identity": { "username": "username", "related": ["lastName"] } } }
 */
export function NewPasswordWidget(props: WidgetProps) {
  const { id, htmlName, value, schema, options, registry, readonly, disabled, autofocus, onChange, onBlur, onFocus } =
    props;
  const styles = useStyles();
  const parent = useParentObject();
  const siblings = useSyncExternalStore(parent.subscribe, parent.data, parent.data);
  const { outside } = formContextOf(registry);
  const pointer = pathToPointer(useFieldPath());
  const answered = Boolean(useContext(ServerErrorsContext)[pointer]);
  const names = identityOption(options.identity);
  const valueOf = (name: string | undefined): unknown =>
    name === undefined ? undefined : (siblings?.[name] ?? outside?.[name]);
  const identity: PasswordIdentity = {
    username: valueOf(names.username),
    email: valueOf(names.email),
    login: valueOf(names.login),
    related: (names.related ?? []).map(valueOf),
  };
  const text = typeof value === 'string' ? value : '';
  return (
    <div>
      <Input
        id={id}
        name={htmlName ?? id}
        type="password"
        autoComplete="new-password"
        value={text}
        readOnly={readonly}
        disabled={disabled}
        autoFocus={autofocus}
        maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
        className={styles.input}
        onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
      />
      {!readonly && !disabled && (
        <Suspense fallback={null}>
          <PasswordMeter password={text} identity={identity} quiet={answered} />
        </Suspense>
      )}
    </div>
  );
}
