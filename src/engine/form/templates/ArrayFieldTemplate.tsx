import type { ReactElement } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { fieldsetStyle, legendStyle } from './fieldset.ts';
import { AddRegular, ArrowDownRegular, ArrowUpRegular, DeleteRegular } from '@fluentui/react-icons';
import { getUiOptions, type ArrayFieldItemTemplateProps, type ArrayFieldTemplateProps } from '@rjsf/utils';
import { translateKnown, translateTitle } from '../messages.ts';
import { useTranslator } from '../useTranslator.ts';

const useStyles = makeStyles({
  list: fieldsetStyle,
  legend: legendStyle,
  count: {
    color: tokens.colorNeutralForeground3,
    fontWeight: tokens.fontWeightRegular,
    marginLeft: tokens.spacingHorizontalS,
  },
  description: { color: tokens.colorNeutralForeground3, marginBottom: tokens.spacingVerticalS },
  items: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  // Rows off screen are neither laid out nor painted: a 300-row list stays responsive.
  row: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'flex-start',
    paddingBottom: tokens.spacingVerticalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    contentVisibility: 'auto',
    containIntrinsicSize: 'auto 96px',
  },
  number: {
    minWidth: '2.5em',
    paddingTop: tokens.spacingVerticalXS,
    color: tokens.colorNeutralForeground3,
    textAlign: 'right',
  },
  content: { flexGrow: 1, minWidth: 0 },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalXXS, paddingTop: tokens.spacingVerticalXXS },
  add: { marginTop: tokens.spacingVerticalS },
});

/**
 * A list of rows (participants, product lines): a titled box, the rows, and "Add row".
 * rjsf memoizes each row, so typing in one of 300 rows re-renders that row only.
 */
export function ArrayFieldTemplate(props: ArrayFieldTemplateProps) {
  const { items, canAdd, onAddClick, readonly, disabled, title, uiSchema, fieldPathId, required } = props;
  const styles = useStyles();
  const i18n = useTranslator();
  const description = translateKnown(i18n, getUiOptions(uiSchema).description);
  return (
    <fieldset className={styles.list} id={fieldPathId.$id}>
      <legend className={styles.legend}>
        {translateTitle(i18n, getUiOptions(uiSchema).title ?? title)}
        {required && !readonly ? ' *' : ''}
        <span className={styles.count}>({items.length})</span>
      </legend>
      {description && <div className={styles.description}>{description}</div>}
      <div className={styles.items}>{items}</div>
      {canAdd && !readonly && (
        <Button
          className={styles.add}
          icon={<AddRegular />}
          disabled={disabled}
          onClick={onAddClick}
          data-action="add-row"
        >
          {i18n.t('engine.form.addRow')}
        </Button>
      )}
    </fieldset>
  );
}

/** One row: its number, its fields, and move / remove buttons (none when read-only). */
export function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, index, buttonsProps, hasToolbar, readonly, disabled } = props;
  const styles = useStyles();
  const i18n = useTranslator();
  const { hasMoveUp, hasMoveDown, hasRemove, onMoveUpItem, onMoveDownItem, onRemoveItem } = buttonsProps;
  // A native title, not a Fluent Tooltip: hundreds of rows should not mean hundreds of popups.
  const button = (label: string, icon: ReactElement, onClick: () => void, enabled: boolean) => (
    <Button
      size="small"
      appearance="subtle"
      aria-label={label}
      title={label}
      icon={icon}
      disabled={disabled || !enabled}
      onClick={onClick}
    />
  );
  return (
    <div className={styles.row} data-row={index}>
      <div className={styles.number}>{index + 1}.</div>
      <div className={styles.content}>{children}</div>
      {hasToolbar && !readonly && (
        <div className={styles.toolbar}>
          {(hasMoveUp || hasMoveDown) &&
            button(i18n.t('engine.form.moveUp'), <ArrowUpRegular />, () => onMoveUpItem(), hasMoveUp)}
          {(hasMoveUp || hasMoveDown) &&
            button(i18n.t('engine.form.moveDown'), <ArrowDownRegular />, () => onMoveDownItem(), hasMoveDown)}
          {hasRemove && button(i18n.t('engine.form.removeRow'), <DeleteRegular />, () => onRemoveItem(), true)}
        </div>
      )}
    </div>
  );
}
