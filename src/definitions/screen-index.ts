/**
 * The screens' index: what every page needs of every screen (its route, kind, menu entry,
 * permission, title, entity) and the few options other screens read of it. The web app bundles
 * the index with its entry; the rest of a screen's options (a dashboard's panels, a flow's
 * steps, a lookup's tabs…, about half the bytes of all screens) loads with the screen's own
 * route (src/definitions/client.ts `loadScreen`). vite.config.ts strips the other options from
 * a screen file imported with `?index`; this type makes the compiler refuse code that reads
 * one of them from the index.
 */
import type { ScreenDefinition } from '../generated/meta.ts';

/**
 * The options the index keeps: the ones read of screens other than the one being shown — the
 * integration view a link opens, a list's fixed filters and a new record's initial values
 * (which list or form a record's links lead to, src/engine/common/routes.ts), a notifications
 * screen's box.
 */
export const INDEX_OPTIONS = ['view', 'fixedFilters', 'initial', 'box'] as const;

type Options = NonNullable<ScreenDefinition['options']>;

/** A screen as the index holds it. */
export type ScreenEntry = Omit<ScreenDefinition, 'options'> & {
  options?: Pick<Options, Extract<(typeof INDEX_OPTIONS)[number], keyof Options>>;
};

/** The query that imports a screen file as its index entry. */
export const SCREEN_INDEX_QUERY = 'index';

/** A screen definition's index entry: the same object without the options the index leaves out. */
export function screenEntry(screen: ScreenDefinition): ScreenEntry {
  if (!screen.options) return screen;
  const kept = Object.fromEntries(
    Object.entries(screen.options).filter(([key]) => (INDEX_OPTIONS as readonly string[]).includes(key)),
  );
  const { options: _all, ...rest } = screen;
  return Object.keys(kept).length ? { ...rest, options: kept } : rest;
}
