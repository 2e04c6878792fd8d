/**
 * Widget names, kept apart from the registry object (index.ts) so templates, and the checker
 * through src/shared/widget-names.ts, can ask about them without importing every widget.
 */

/** Widgets that edit a whole object (rendered in place of the object's own fields). */
export const objectWidgetNames: ReadonlySet<string> = new Set(['mapPoint']);

/**
 * Widgets that draw their value read-only themselves (a matrix of ticks, field titles, named
 * chips): the record page's read view renders them with `readonly` instead of formatting the
 * raw value, which would be codes and pointers.
 */
export const selfReadingWidgetNames: ReadonlySet<string> = new Set(['permissionMatrix', 'fieldRules', 'entityChoices']);

// The plain lists of ui:widget names live in src/shared (`npm run check` reads them too).
export {
  isKnownWidgetName,
  knownWidgetNames,
  portalWidgetNames,
  rjsfComponentWidgetNames,
  rjsfWidgetNames,
  type PortalWidgetName,
  type RjsfComponentWidgetName,
} from '../../../shared/widget-names.ts';
