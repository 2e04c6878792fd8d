/**
 * The small templates of the theme: no error list (errors show on their fields), no submit
 * button (screens render their own), translated titles and descriptions, Fluent buttons.
 */
import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import {
  AddRegular,
  ArrowDownRegular,
  ArrowUpRegular,
  CopyRegular,
  DeleteRegular,
  DismissRegular,
} from '@fluentui/react-icons';
import type { ReactElement } from 'react';
import type { DescriptionFieldProps, IconButtonProps, TitleFieldProps } from '@rjsf/utils';
import { translateKnown, translateTitle } from '../messages.ts';
import { useTranslator } from '../useTranslator.ts';

const useStyles = makeStyles({
  title: {
    display: 'block',
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    marginBottom: tokens.spacingVerticalS,
  },
  description: { display: 'block', color: tokens.colorNeutralForeground3, marginBottom: tokens.spacingVerticalS },
});

/** Errors are shown on their fields, never as a list on top. */
export const ErrorListTemplate = (): null => null;

/** Screens render their own buttons (save, send, next), so the form has none. */
export const SubmitButton = (): null => null;

/** Field errors and help are rendered by FieldTemplate itself. */
export const FieldErrorTemplate = (): null => null;
export const FieldHelpTemplate = (): null => null;

/** A translated title. */
export function TitleFieldTemplate({ id, title, required }: TitleFieldProps) {
  const i18n = useTranslator();
  const styles = useStyles();
  return (
    <Text id={id} className={styles.title}>
      {translateTitle(i18n, title)}
      {required ? ' *' : ''}
    </Text>
  );
}

/** A description, shown only when it is an i18n key: schema notes for analysts stay off screen. */
export function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  const i18n = useTranslator();
  const styles = useStyles();
  const text = translateKnown(i18n, description);
  return text ? (
    <Text id={id} className={styles.description}>
      {text}
    </Text>
  ) : null;
}

function iconButton(icon: ReactElement, labelKey: string) {
  return function PortalIconButton(props: IconButtonProps) {
    const {
      registry: _registry,
      uiSchema: _uiSchema,
      iconType: _iconType,
      icon: _icon,
      className,
      disabled,
      onClick,
      id,
      title,
    } = props;
    const i18n = useTranslator();
    const label = title ?? i18n.t(labelKey);
    return (
      <Button
        id={id}
        className={className}
        size="small"
        appearance="subtle"
        icon={icon}
        aria-label={label}
        title={label}
        disabled={disabled}
        onClick={onClick}
      />
    );
  };
}

/** rjsf's button templates as Fluent buttons (used by templates we do not override). */
export const ButtonTemplates = {
  SubmitButton,
  AddButton: iconButton(<AddRegular />, 'engine.form.addRow'),
  RemoveButton: iconButton(<DeleteRegular />, 'engine.form.removeRow'),
  MoveUpButton: iconButton(<ArrowUpRegular />, 'engine.form.moveUp'),
  MoveDownButton: iconButton(<ArrowDownRegular />, 'engine.form.moveDown'),
  CopyButton: iconButton(<CopyRegular />, 'engine.form.copyRow'),
  ClearButton: iconButton(<DismissRegular />, 'engine.form.clear'),
};
