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
