/**
 * The manifest capability registry. A capability is an optional key of an entity manifest
 * (`drafts`, `publicSubmit`, `aggregates`, …) with one folder here named like the key, holding
 * its three parts:
 *
 * - `schema.json` — its fragment of the entity meta-schema: `{"properties": {"<key>": …}}`, plus
 *   `definitions` it refers to. `npm run codegen` composes `schemas/_meta/entity.schema.json`
 *   from `entity.base.schema.json` beside it and every fragment ({@link composeEntityMetaSchema});
 *   editors and the checker read that composed file, and `npm run check` fails when it is stale;
 * - `check.ts` — its `npm run check` rule (a `CheckRule` as default export), run by
 *   src/definitions/check.ts after the screens rule (checks.ts loads them);
 * - `plugin.ts` — its Fastify route plugin (default export, given the definitions of the
 *   manifests that declare the key), and the `migrations` of its tables if it has any.
 *
 * The folders are found by reading this directory, like @fastify/autoload does: adding a
 * capability adds a folder and touches no central file. Capabilities whose logic lives deep in
 * the store or the file routes (`scope`, `files`, `unique`, `photo`, `remoteSource`, `tree`, …)
 * stay in the base meta-schema and their own modules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import type { CheckRule } from '../../definitions/check/context.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { EntityManifest } from '../../generated/meta.ts';
import type { Migration } from '../db/migrations.ts';

/** This folder: one sub-folder per capability. */
export const CAPABILITIES_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The three files every capability folder holds. */
export const CAPABILITY_PARTS = ['schema.json', 'check.ts', 'plugin.ts'] as const;

/** The composed meta-schema and the hand-written part it is composed from (repository-relative). */
export const ENTITY_META_FILE = 'schemas/_meta/entity.schema.json';
export const ENTITY_META_BASE_FILE = 'schemas/_meta/entity.base.schema.json';

/** What the composed file says of itself, so that nobody edits it by hand. */
const COMPOSED_NOTE =
  'Composed by npm run codegen from entity.base.schema.json and the capability fragments ' +
  'src/server/capabilities/<key>/schema.json: edit those, not this file.';

/** A capability's `schema.json`: the manifest properties it adds and the definitions they refer to. */
export interface CapabilityFragment {
  $comment?: string;
  properties: Record<string, object>;
  definitions?: Record<string, object>;
}

/** What a capability's plugin is given: the definitions of the entities whose manifest declares the key. */
export interface CapabilityOptions {
  entities: readonly EntityDefinition[];
}

/** A capability's `plugin.ts`. */
export interface CapabilityPluginModule {
  default: FastifyPluginAsync<CapabilityOptions>;
  /** The tables of the capability (db/migrations.ts). */
  migrations?: readonly Migration[];
}

/**
 * The capability folders, in name order (the order their rules run and their routes register).
 * @example capabilityNames() // ['aggregates', 'drafts', 'merge', 'publicLookups', 'publicSubmit', 'questionnaire']
 */
export function capabilityNames(dir: string = CAPABILITIES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The parts a capability folder lacks (an empty list for a complete one). */
export function missingParts(name: string, dir: string = CAPABILITIES_DIR): string[] {
  return CAPABILITY_PARTS.filter((part) => !existsSync(path.join(dir, name, part)));
}

/** Every capability's meta-schema fragment, by name. */
export function capabilityFragments(dir: string = CAPABILITIES_DIR): Map<string, CapabilityFragment> {
  const read = (name: string): CapabilityFragment =>
    JSON.parse(readFileSync(path.join(dir, name, 'schema.json'), 'utf8')) as CapabilityFragment;
  return new Map(capabilityNames(dir).map((name) => [name, read(name)]));
}

/**
 * The entity meta-schema: the base's properties, then each capability's (its key must be the
 * folder's name and new to the schema), with the fragments' definitions added to the base's.
 * Throws on a fragment that does not fit, so codegen cannot write a broken meta-schema.
 * @example composeEntityMetaSchema(readJson(ENTITY_META_BASE_FILE), capabilityFragments())
 */
export function composeEntityMetaSchema(
  base: Record<string, unknown>,
  fragments: ReadonlyMap<string, CapabilityFragment>,
): Record<string, unknown> {
  const properties = { ...(base.properties as Record<string, object>) };
  const definitions = { ...((base.definitions ?? {}) as Record<string, object>) };
  for (const [name, fragment] of fragments) {
    const keys = Object.keys(fragment.properties ?? {});
    if (keys.length !== 1 || keys[0] !== name) {
      throw new Error(
        `capability ${name}: schema.json must declare exactly the property "${name}" (found ${keys.join(', ') || 'none'})`,
      );
    }
    if (name in properties)
      throw new Error(`capability ${name}: the entity meta-schema already has the property "${name}"`);
    properties[name] = fragment.properties[name]!;
    for (const [id, definition] of Object.entries(fragment.definitions ?? {})) {
      if (id in definitions) throw new Error(`capability ${name}: the definition "${id}" is already declared`);
      definitions[id] = definition;
    }
  }
  const { $schema, $id: _baseId, $comment: _baseComment, definitions: _baseDefinitions, ...rest } = base;
  return {
    $schema,
    $id: path.basename(ENTITY_META_FILE),
    $comment: COMPOSED_NOTE,
    ...rest,
    properties,
    ...(Object.keys(definitions).length ? { definitions } : {}),
  };
}

/** The meta-schema as the file holds it: two-space JSON and a final newline. */
export const metaSchemaText = (schema: unknown): string => `${JSON.stringify(schema, null, 2)}\n`;

/** Imports one part of a capability folder (by file URL: the folder is found at run time); a half-made folder is named. */
async function importPart(dir: string, name: string, part: 'check.ts' | 'plugin.ts'): Promise<unknown> {
  const missing = missingParts(name, dir);
  if (missing.length) throw new Error(`capability ${name} (${path.join(dir, name)}) lacks ${missing.join(', ')}`);
  return import(pathToFileURL(path.join(dir, name, part)).href);
}

/** Each capability's check rule, in name order. */
export async function loadCapabilityChecks(dir: string = CAPABILITIES_DIR): Promise<CheckRule[]> {
  const load = async (name: string): Promise<CheckRule> =>
    ((await importPart(dir, name, 'check.ts')) as { default: CheckRule }).default;
  return Promise.all(capabilityNames(dir).map(load));
}

/** One capability's plugin as buildApp registers it: the key it serves and its module. */
export interface CapabilityPlugin {
  name: keyof EntityManifest;
  module: CapabilityPluginModule;
}

/** Each capability's plugin module, in name order. */
export async function loadCapabilityPlugins(dir: string = CAPABILITIES_DIR): Promise<CapabilityPlugin[]> {
  return Promise.all(
    capabilityNames(dir).map(async (name) => ({
      name: name as keyof EntityManifest,
      module: (await importPart(dir, name, 'plugin.ts')) as CapabilityPluginModule,
    })),
  );
}

/** The entities whose manifest declares the capability (a value that is set and not `false`). */
export function declaring(entities: Iterable<EntityDefinition>, name: keyof EntityManifest): EntityDefinition[] {
  return [...entities].filter((def) => Boolean(def.manifest[name]));
}

/** A capability as buildApp takes a route module: a plugin without options, and its tables. */
export interface CapabilityRouteModule {
  default: FastifyPluginAsync;
  migrations?: readonly Migration[];
}

/**
 * The capabilities as route modules of buildApp: each registers its plugin with the entities
 * that declare its key (also when none does, as a route plugin would), and brings its tables.
 * @example const routes = [...otherRoutes, ...(await loadCapabilityRoutes())];
 */
export async function loadCapabilityRoutes(dir: string = CAPABILITIES_DIR): Promise<CapabilityRouteModule[]> {
  return (await loadCapabilityPlugins(dir)).map(({ name, module }) => ({
    default: async (app) => {
      await app.register(module.default, { entities: declaring(app.definitions.entities.values(), name) });
    },
    ...(module.migrations ? { migrations: module.migrations } : {}),
  }));
}
