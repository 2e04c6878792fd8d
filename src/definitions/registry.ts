import type { JSONSchema7 } from 'json-schema';
import type {
  EntityManifest,
  GridDefinition,
  MachineDefinition,
  ReferenceList,
  ScreenDefinition,
  AccessDefinition,
  SeedFile,
  UiDefinition,
  OpenDataset,
  EditRules,
  RecordMigration,
  IntegrationAgency,
  IntegrationMethod,
  IntegrationFixture,
} from '../generated/meta.ts';
import type { DefinitionSources } from './sources.ts';
import type { Locale } from '../shared/locales.ts';
import { localeSourcesOf, mergeLocales } from './locales.ts';

/** One entity: its manifest and the files it names. */
export interface EntityDefinition {
  id: string;
  manifest: EntityManifest;
  schema: JSONSchema7;
  ui: UiDefinition | undefined;
  grid: GridDefinition;
  /** Who may change which fields, and delete, in each status (`edit.json`). */
  edit: EditRules;
  /** The records of the manifest's `seed.file` (server side only; the web app never loads them). */
  seedFile?: SeedFile;
  /** Repository-relative folder, for messages. */
  dir: string;
  /** The manifest's `schemaVersion` (absent = 1): the version records are written at. */
  schemaVersion: number;
  /**
   * `migrations/<N>.json` for N = 2…schemaVersion, in order: each turns a stored record of
   * version N-1 into one of version N (docs/schema-evolution.md).
   */
  migrations: EntityMigration[];
}

/** One migration file of an entity. */
export interface EntityMigration {
  /** The version it migrates records to (the file's number). */
  version: number;
  /** Repository-relative path, named in the audit and the start-up log. */
  file: string;
  migration: RecordMigration;
}

/**
 * The migrations in `sources` of the entity folder `dir`, by version, in order.
 * @example migrationsIn(sources, 'schemas/contractor') // [{ version: 2, file: 'schemas/contractor/migrations/2.json', … }]
 */
export function migrationsIn(sources: DefinitionSources, dir: string): EntityMigration[] {
  const out: EntityMigration[] = [];
  for (const [file, { json: migration }] of sources) {
    const m = /^(.*)\/migrations\/([1-9][0-9]*)\.json$/.exec(file);
    if (m?.[1] === dir) out.push({ version: Number(m[2]), file, migration: migration as RecordMigration });
  }
  return out.sort((a, b) => a.version - b.version);
}

/** An agency of the integration platform: its definition, its methods and the sandbox's answers, by method id. */
export interface IntegrationAgencyDefinition {
  agency: IntegrationAgency;
  methods: Map<string, IntegrationMethod>;
  fixtures: Map<string, IntegrationFixture>;
}

const INTEGRATION_FILE = /^schemas\/_integrations\/([a-z][a-z0-9-]*)\/(fixtures\/)?([a-z][a-z0-9-]*)\.json$/;

/** The agencies under schemas/_integrations, each with its methods and fixtures (files in name order). */
function integrationsOf(sources: DefinitionSources): Map<string, IntegrationAgencyDefinition> {
  type Found = {
    agency?: IntegrationAgency;
    methods: Map<string, IntegrationMethod>;
    fixtures: Map<string, IntegrationFixture>;
  };
  const found = new Map<string, Found>();
  for (const [file, source] of sources) {
    const m = INTEGRATION_FILE.exec(file);
    if (!m) continue;
    const entry: Found = found.get(m[1]!) ?? { methods: new Map(), fixtures: new Map() };
    found.set(m[1]!, entry);
    if (m[2]) entry.fixtures.set(m[3]!, source.json as IntegrationFixture);
    else if (m[3] === 'agency') entry.agency = source.json as IntegrationAgency;
    else entry.methods.set(m[3]!, source.json as IntegrationMethod);
  }
  const out = new Map<string, IntegrationAgencyDefinition>();
  for (const [id, entry] of [...found].sort((a, b) => a[0].localeCompare(b[0])))
    if (entry.agency) out.set(id, { agency: entry.agency, methods: entry.methods, fixtures: entry.fixtures });
  return out;
}

/** Everything the engine, the server and the scripts read: one registry for all. */
export interface DefinitionRegistry {
  entities: Map<string, EntityDefinition>;
  machines: Map<string, MachineDefinition>;
  screens: Map<string, ScreenDefinition>;
  references: Map<string, ReferenceList>;
  /** schemas/_access/access.json: users, roles and what anonymous visitors may do. */
  access: AccessDefinition | undefined;
  /** schemas/_opendata/*.json: the open-data catalogue by dataset code. */
  openData: Map<string, OpenDataset>;
  /** schemas/_integrations/<agency>/: the other agencies' methods staff may query, by agency id. */
  integrations: Map<string, IntegrationAgencyDefinition>;
  /** The texts per locale: the shell files merged with every entity's and machine's (locales.ts). */
  locales: Record<Locale, Record<string, unknown>>;
}

const json = <T>(sources: DefinitionSources, file: string): T | undefined => sources.get(file)?.json as T | undefined;

/**
 * Builds the registry from parsed sources. It assumes the sources passed
 * `checkDefinitions`; files that are missing are skipped rather than guessed.
 */
export function createDefinitionRegistry(sources: DefinitionSources): DefinitionRegistry {
  const registry: DefinitionRegistry = {
    entities: new Map(),
    machines: new Map(),
    screens: new Map(),
    references: new Map(),
    openData: new Map(),
    integrations: integrationsOf(sources),
    access: json<AccessDefinition>(sources, 'schemas/_access/access.json'),
    locales: mergeLocales(...localeSourcesOf(sources)).locales,
  };
  for (const file of sources.keys()) {
    const m = /^schemas\/([a-z][a-z0-9-]*)\/entity\.json$/.exec(file);
    if (m) {
      const dir = `schemas/${m[1]}`;
      const manifest = json<EntityManifest>(sources, file)!;
      const schema = json<JSONSchema7>(sources, `${dir}/${manifest.schema}`);
      const grid = json<GridDefinition>(sources, `${dir}/${manifest.grid}`);
      const edit = json<EditRules>(sources, `${dir}/${manifest.edit}`);
      if (!schema || !grid || !edit) continue;
      const ui = manifest.ui ? json<UiDefinition>(sources, `${dir}/${manifest.ui}`) : undefined;
      const seedFile = manifest.seed?.file ? json<SeedFile>(sources, `${dir}/${manifest.seed.file}`) : undefined;
      registry.entities.set(manifest.id, {
        id: manifest.id,
        manifest,
        schema,
        ui,
        grid,
        edit,
        seedFile,
        dir,
        schemaVersion: manifest.schemaVersion ?? 1,
        migrations: migrationsIn(sources, dir),
      });
    } else if (/^workflows\/[a-z][a-z0-9-]*\.machine\.json$/.test(file)) {
      const machine = json<MachineDefinition>(sources, file)!;
      registry.machines.set(machine.id, machine);
    } else if (/^screens\/[a-z][a-z0-9-]*\.json$/.test(file)) {
      const screen = json<ScreenDefinition>(sources, file)!;
      registry.screens.set(screen.id, screen);
    } else if (/^schemas\/_opendata\/[0-9-]+\.json$/.test(file)) {
      const dataset = json<OpenDataset>(sources, file)!;
      registry.openData.set(dataset.code, dataset);
    } else if (/^schemas\/_reference\/[a-z][a-z0-9-]*\.json$/.test(file)) {
      const list = json<ReferenceList>(sources, file)!;
      registry.references.set(list.kind, list);
    }
  }
  // A list kept as an entity's records starts as that entity's seed (ids in seed order, as
  // an empty table numbers them): definitions-time readers (sample data, seed checks) see
  // the first items; the running server reads the records themselves.
  for (const list of registry.references.values()) {
    const backing = list.entity ? registry.entities.get(list.entity) : undefined;
    if (!backing || list.items.length) continue;
    const text = (v: unknown): string => (typeof v === 'string' ? v : '');
    const items = ((backing.seedFile?.records ?? []) as Array<Record<string, unknown>>).map((r, i) => ({
      id: i + 1,
      code: text(r.code),
      parent: null,
      nameLt: text(r.nameLt),
      nameUz: text(r.nameUz),
      nameRu: text(r.nameRu),
      nameEn: text(r.nameEn),
      ...(typeof r.order === 'number' ? { sort: r.order } : {}),
    }));
    registry.references.set(list.kind, { ...list, items });
  }
  return registry;
}
