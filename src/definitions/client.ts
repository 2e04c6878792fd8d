/**
 * The definitions as the web app sees them. Manifests and screens are small and loaded
 * with the app; an entity's schema, ui and grid load with the first screen that needs them.
 */
import type { JSONSchema7 } from 'json-schema';
import type {
  EditRules,
  EntityManifest,
  GridDefinition,
  MachineDefinition,
  ScreenDefinition,
  UiDefinition,
} from '../generated/meta.ts';
import type { EntityDefinition } from './registry.ts';
import type { ScreenEntry } from './screen-index.ts';

const manifestFiles = import.meta.glob<EntityManifest>('/schemas/*/entity.json', { eager: true, import: 'default' });
// Every screen's index entry with the app (vite.config.ts strips the other options of a file
// imported `?index`), and each whole screen as a chunk of its own, loaded with its route.
const screenEntries = import.meta.glob<ScreenEntry>('/screens/*.json', {
  eager: true,
  import: 'default',
  query: '?index', // SCREEN_INDEX_QUERY (glob options must be literals)
});
const screenFiles = import.meta.glob<ScreenDefinition>('/screens/*.json', { import: 'default' });
const entityFiles = import.meta.glob<unknown>(
  [
    '/schemas/*/*.json',
    '!/schemas/*/entity.json',
    '!/schemas/*/seed.json',
    '!/schemas/*/i18n.json',
    '!/schemas/_*/*.json',
  ],
  { import: 'default' },
);
const machineFiles = import.meta.glob<MachineDefinition>('/workflows/*.machine.json', { import: 'default' });
const counterFiles = import.meta.glob<{ counters: Record<string, CounterRule[]> }>('/schemas/_counters/*.json', {
  import: 'default',
});

/** One rule of a header counter (schemas/_counters): records of `entity` in `statuses`, maybe only those assigned to the user. */
export interface CounterRule {
  entity: string;
  statuses: string[];
  /** The record field that must hold the user's id. */
  assignedTo?: string;
}

/** The header counters' rules by counter name (loaded on demand: only staff screens need them). */
export async function loadCounterRules(): Promise<Record<string, CounterRule[]>> {
  const files = await Promise.all(Object.values(counterFiles).map((load) => load()));
  return Object.assign({}, ...files.map((f) => f.counters));
}

/** Entity manifests by id. */
export const manifests: ReadonlyMap<string, EntityManifest> = new Map(
  Object.values(manifestFiles).map((m) => [m.id, m]),
);

/**
 * Screens in a stable order (menu order, then id). Ids are compared by code point, not with
 * `localeCompare`: they are ASCII, and the first `localeCompare` of a page starts the
 * browser's collator, a long pause on a phone.
 */
export const screens: readonly ScreenEntry[] = Object.values(screenEntries).sort(
  (a, b) => (a.menu?.order ?? 1e9) - (b.menu?.order ?? 1e9) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
);

const screenFileOf = new Map(Object.entries(screenEntries).map(([file, entry]) => [entry.id, file]));

/** Loads a whole screen definition (its options too) by its index entry. */
export async function loadScreen(entry: ScreenEntry): Promise<ScreenDefinition> {
  const load = screenFiles[screenFileOf.get(entry.id) ?? ''];
  if (!load) throw new Error(`unknown screen "${entry.id}"`);
  return load();
}

const cache = new Map<string, Promise<EntityDefinition>>();

/** Loads an entity's schema, ui and grid (once). */
export function loadEntity(id: string): Promise<EntityDefinition> {
  let pending = cache.get(id);
  if (!pending) {
    pending = (async () => {
      const manifest = manifests.get(id);
      if (!manifest) throw new Error(`unknown entity "${id}"`);
      const file = async <T>(name: string | undefined): Promise<T | undefined> => {
        const load = name ? entityFiles[`/schemas/${id}/${name}`] : undefined;
        return load ? ((await load()) as T) : undefined;
      };
      const [schema, ui, grid, edit] = await Promise.all([
        file<JSONSchema7>(manifest.schema),
        file<UiDefinition>(manifest.ui),
        file<GridDefinition>(manifest.grid),
        file<EditRules>(manifest.edit),
      ]);
      // The web app writes no stored records of older versions: the server migrates them.
      const schemaVersion = manifest.schemaVersion ?? 1;
      return {
        id,
        manifest,
        schema: schema!,
        ui,
        grid: grid!,
        edit: edit!,
        dir: `schemas/${id}`,
        schemaVersion,
        migrations: [],
      };
    })();
    cache.set(id, pending);
  }
  return pending;
}

/** Loads a machine definition, or undefined when the entity has none. */
export async function loadMachine(id: string | undefined): Promise<MachineDefinition | undefined> {
  const load = id ? machineFiles[`/workflows/${id}.machine.json`] : undefined;
  return load ? load() : undefined;
}

/** Loads the form definition of an entity: its `ui`, or the named view from `views`. */
export async function loadUi(id: string, view?: string): Promise<UiDefinition | undefined> {
  const manifest = manifests.get(id);
  const name = view ? manifest?.views?.[view] : manifest?.ui;
  const load = name ? entityFiles[`/schemas/${id}/${name}`] : undefined;
  return load ? ((await load()) as UiDefinition) : undefined;
}
