/**
 * The `ui:widget` names a form may use: a plain list (no React), so the form engine
 * (src/engine/form/widgets: the registry's keys are exactly `portalWidgetNames`) and
 * `npm run check` agree on which names render and which would silently fall back.
 */

/** The theme's own widget names: the keys of `portalWidgets` (src/engine/form/widgets/index.ts). */
export const portalWidgetNames = [
  'text',
  'textarea',
  'number',
  'money',
  'select',
  'reference',
  'radio',
  'phone',
  'phoneNumber',
  'stir',
  'pinfl',
  'postIndex',
  'mxik',
  'date',
  'date-time',
  'datetime',
  'checkbox',
  'checkboxes',
  'file',
  'mapPoint',
  'entityRef',
  'entityChoices',
  'staffUser',
  'hidden',
  'newPassword',
  'permissionMatrix',
  'fieldRules',
] as const;

/** A widget name of the theme's registry. */
export type PortalWidgetName = (typeof portalWidgetNames)[number];

/** rjsf's own short widget names (its type → widget map), valid without our registry. */
export const rjsfWidgetNames: ReadonlySet<string> = new Set([
  'text',
  'password',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uri',
  'data-url',
  'radio',
  'select',
  'textarea',
  'hidden',
  'date',
  'datetime',
  'date-time',
  'alt-date',
  'alt-datetime',
  'time',
  'color',
  'file',
  'checkbox',
  'updown',
  'range',
  'checkboxes',
  'files',
]);

/** rjsf's component widget names (the keys of its default registry's widgets); a test keeps them in step with rjsf. */
export const rjsfComponentWidgetNames = [
  'AltDateWidget',
  'AltDateTimeWidget',
  'CheckboxWidget',
  'CheckboxesWidget',
  'ColorWidget',
  'DateWidget',
  'DateTimeWidget',
  'EmailWidget',
  'FileWidget',
  'HiddenWidget',
  'PasswordWidget',
  'RadioWidget',
  'RangeWidget',
  'RatingWidget',
  'SelectWidget',
  'TextWidget',
  'TextareaWidget',
  'TimeWidget',
  'UpDownWidget',
  'URLWidget',
] as const;

/** One of rjsf's component widget names. */
export type RjsfComponentWidgetName = (typeof rjsfComponentWidgetNames)[number];

/** Every `ui:widget` name rjsf with our theme can render (anything else falls back to the type's default widget). */
export const knownWidgetNames: ReadonlySet<string> = new Set([
  ...portalWidgetNames,
  ...rjsfWidgetNames,
  ...rjsfComponentWidgetNames,
]);

/**
 * Whether rjsf with our theme can render a `ui:widget` of this name.
 * @example isKnownWidgetName('money') // true
 */
export const isKnownWidgetName = (name: string): boolean => knownWidgetNames.has(name);

/** What a field must be for a widget to edit it: its JSON type(s), and a format or the items' shape where the widget needs one. */
export interface WidgetFit {
  /** The field's `type`: one of these. */
  types: readonly string[];
  /** The field's `format`: one of these (a date widget writes `YYYY-MM-DD`). */
  formats?: readonly string[];
  /** An array's items: this type and format (a file widget keeps upload ids). */
  items?: { type: string; format?: string };
}

const TEXT: WidgetFit = { types: ['string'] };
const SCALAR_OR_LIST: WidgetFit = { types: ['string', 'integer', 'number', 'boolean', 'array'] };

/**
 * The fields each widget of the theme's registry fits; `npm run check` reports a widget on
 * any other field (it would render, but write values the schema refuses). `hidden` fits all.
 * @example widgetFits.date // { types: ['string'], formats: ['date'] }
 */
export const widgetFits: Readonly<Record<PortalWidgetName, WidgetFit | undefined>> = {
  text: TEXT,
  textarea: TEXT,
  number: { types: ['number', 'integer'] },
  money: { types: ['number', 'integer'] },
  select: SCALAR_OR_LIST,
  reference: { types: ['integer', 'string', 'array'] },
  radio: SCALAR_OR_LIST,
  phone: TEXT,
  phoneNumber: TEXT,
  stir: TEXT,
  pinfl: TEXT,
  postIndex: TEXT,
  mxik: TEXT,
  date: { types: ['string'], formats: ['date'] },
  'date-time': { types: ['string'], formats: ['date-time'] },
  datetime: { types: ['string'], formats: ['date-time'] },
  checkbox: { types: ['boolean'] },
  checkboxes: { types: ['array'] },
  file: { types: ['array'], items: { type: 'string', format: 'uuid' } },
  mapPoint: { types: ['object'] },
  entityRef: { types: ['integer', 'string'] },
  entityChoices: { types: ['array'] },
  staffUser: { types: ['integer'] },
  hidden: undefined,
  newPassword: TEXT,
  permissionMatrix: { types: ['array'] },
  fieldRules: { types: ['array'] },
};

/**
 * Why a widget does not fit a field (plain words), or undefined when it fits or is not one
 * of the theme's widgets. `type`/`format` are the field's; `items` its items' when an array.
 * @example widgetMisfit('date', { type: 'number' }) // 'widget "date" fits only fields of type string with format date (this field: number)'
 */
export function widgetMisfit(
  widget: string,
  field: { type?: string | undefined; format?: string | undefined; items?: { type?: string; format?: string } },
): string | undefined {
  const fit = Object.hasOwn(widgetFits, widget) ? widgetFits[widget as PortalWidgetName] : undefined;
  if (!fit) return undefined;
  const wanted = `fields of type ${fit.types.join(' or ')}${fit.formats ? ` with format ${fit.formats.join(' or ')}` : ''}${
    fit.items ? ` of ${fit.items.type} items${fit.items.format ? ` with format ${fit.items.format}` : ''}` : ''
  }`;
  const actual = `${field.type ?? 'untyped'}${field.format ? ` with format ${field.format}` : ''}`;
  const fits =
    field.type !== undefined &&
    fit.types.includes(field.type) &&
    (!fit.formats || fit.formats.includes(String(field.format))) &&
    (!fit.items ||
      (field.items?.type === fit.items.type && (!fit.items.format || field.items.format === fit.items.format)));
  return fits ? undefined : `widget "${widget}" fits only ${wanted} (this field: ${actual})`;
}
