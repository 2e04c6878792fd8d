import { useLayoutEffect, useState, type ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { fieldsetStyle, legendStyle } from './fieldset.ts';
import {
  getSchemaType,
  getUiOptions,
  type ObjectFieldTemplateProps,
  type Registry,
  type RJSFSchema,
  type UiSchema,
} from '@rjsf/utils';
import { createParentObjectStore, formContextOf, ParentObjectContext } from '../context.ts';
import { translateKnown, translateTitle } from '../messages.ts';
import { useTranslator } from '../useTranslator.ts';
import { objectWidgetNames } from '../widgets/names.ts';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalM,
    alignItems: 'start',
    // By the width the form has, not the window's: a form in a dialog or beside a panel gets
    // the columns that fit it (two in a dialog, where three squeezed the inputs past their cells).
    // rem, not px: Griffel orders queries as strings, and "1024px" sorts before "640px".
    '@container (min-width: 28rem)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    '@container (min-width: 48rem)': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
  },
  // The box whose width the grid's columns follow.
  container: { containerType: 'inline-size' },
  wide: { gridColumn: '1 / -1' },
  // `ui:options.columns: 1`: one field a row, for narrow forms (sign-in) whatever the screen.
  single: { gridTemplateColumns: 'minmax(0, 1fr) !important' },
  group: fieldsetStyle,
  legend: legendStyle,
  description: { color: tokens.colorNeutralForeground3, marginBottom: tokens.spacingVerticalS },
});

const WIDE_WIDGETS = new Set(['textarea', 'file', ...objectWidgetNames]);

/** Whether a property takes a whole row: nested groups, lists, long text, files, the map. */
function isWide(schema: RJSFSchema | undefined, ui: UiSchema | undefined, registry: Registry): boolean {
  const widget = getUiOptions(ui).widget;
  if (typeof widget === 'string' && WIDE_WIDGETS.has(widget)) return true;
  if (!schema) return false;
  const type = getSchemaType(schema);
  return type === 'object' || (type === 'array' && !registry.schemaUtils.isMultiSelect(schema));
}

/**
 * An object's fields on a responsive grid (one column on a phone, up to three in a wide
 * form: the columns follow the form's own width, a container query); a nested object is a titled group. At the root, `formContext.fields` (a wizard
 * step) limits which fields render; the others keep their data untouched.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { title, properties, fieldPathId, formData, schema, uiSchema, registry } = props;
  const styles = useStyles();
  const i18n = useTranslator();
  const path = fieldPathId.path;
  const { fields } = formContextOf(registry);
  const data = formData as Record<string, unknown> | undefined;
  const [parent] = useState(() => createParentObjectStore(path, data));
  parent.record(path, data);
  useLayoutEffect(() => parent.notify(), [parent, data]);

  const shown = path.length === 0 && fields ? properties.filter((p) => fields.includes(`/${p.name}`)) : properties;
  const grid = (
    <div className={styles.container}>
      <div className={mergeClasses(styles.grid, getUiOptions(uiSchema).columns === 1 && styles.single)}>
        {shown.map((p): ReactNode => {
          if (p.hidden)
            return (
              <div key={p.name} hidden>
                {p.content}
              </div>
            );
          const wide = isWide(
            schema.properties?.[p.name] as RJSFSchema | undefined,
            uiSchema?.[p.name] as UiSchema | undefined,
            registry,
          );
          return (
            <div key={p.name} className={mergeClasses(wide && styles.wide)}>
              {p.content}
            </div>
          );
        })}
      </div>
    </div>
  );
  // Rows of a list are numbered by the list; the root's title is the screen's heading.
  const inList = typeof path[path.length - 1] === 'number';
  const heading = path.length > 0 && !inList ? translateTitle(i18n, title) : '';
  const description = translateKnown(i18n, getUiOptions(uiSchema).description);
  return (
    <ParentObjectContext.Provider value={parent}>
      {heading ? (
        <fieldset className={styles.group}>
          <legend className={styles.legend}>{heading}</legend>
          {description && <div className={styles.description}>{description}</div>}
          {grid}
        </fieldset>
      ) : (
        grid
      )}
    </ParentObjectContext.Provider>
  );
}
