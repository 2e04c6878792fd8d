/**
 * Widget names that are not in the registry object itself: kept apart so templates can ask
 * about them without importing every widget.
 */

/** Widgets that edit a whole object (rendered in place of the object's own fields). */
export const objectWidgetNames: ReadonlySet<string> = new Set(['mapPoint']);

/** rjsf's own short widget names (its type → widget map), valid without our registry. */
export const rjsfWidgetNames: ReadonlySet<string> = new Set([
  'text', 'password', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'data-url', 'radio', 'select', 'textarea',
  'hidden', 'date', 'datetime', 'date-time', 'alt-date', 'alt-datetime', 'time', 'color', 'file', 'checkbox',
  'updown', 'range', 'checkboxes', 'files',
]);
