/**
 * The shared state of one `npm run check` run, built once and handed to every rule module in
 * turn: the sources, the meta-schema validators, the problem list, the i18n keys met so far,
 * and the registries the rules fill as they go (reference lists, machines, entities), which
 * later rules read. A rule is `{ name, run(ctx) }`; `checkDefinitions` runs them in order.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JSONSchema7 } from 'json-schema';
import type { DefinitionSources } from '../sources.ts';
import type {
  AccessDefinition,
  EntityManifest,
  MachineDefinition,
  ReferenceList,
  ScreenDefinition,
} from '../../generated/meta.ts';
import { addPortalVocabulary } from '../../shared/validation/vocabulary.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { escapeSegment, getAtPointer } from '../../shared/pointer.ts';
import { didYouMean, unknownNameMessage } from './suggest.ts';

/** One thing wrong with the definitions: the file, where in it, and what. */
export interface DefinitionProblem {
  file: string;
  pointer: string;
  message: string;
}

/** Names of the implementations machines may refer to (see src/server/workflow/implementations.ts). */
export interface ImplementationNames {
  guards: Iterable<string>;
  actions: Iterable<string>;
  delays: Iterable<string>;
  /** Payload checks (`checks` of a transition). */
  checks: Iterable<string>;
}

/** Records one problem. */
export type Report = (file: string, pointer: string, message: string) => void;
/** Notes an i18n key met at file#pointer (`group`: a prefix of several texts); checked at the end. */
export type UseKey = (file: string, pointer: string, key: unknown, group?: boolean) => void;

/** The meta-schema of each definition kind (schemas/_meta/<name>). */
export const META_FOR = {
  entity: 'entity.schema.json',
  record: 'record.schema.json',
  ui: 'ui.schema.json',
  grid: 'grid.schema.json',
  screen: 'screen.schema.json',
  machine: 'machine.schema.json',
  reference: 'reference.schema.json',
  access: 'access.schema.json',
  seed: 'seed.schema.json',
  openData: 'opendata.schema.json',
  integrationAgency: 'integration-agency.schema.json',
  integrationMethod: 'integration-method.schema.json',
  integrationFixture: 'integration-fixture.schema.json',
  edit: 'edit.schema.json',
} as const;

/** Escapes one JSON-pointer segment (`~` → `~0`, `/` → `~1`); the rules import it from here. */
export const escape = escapeSegment;

/** Where access.json lives; several rules read it raw, valid or not. */
export const ACCESS_FILE = 'schemas/_access/access.json';

/** One entity as the entity rule found it: its manifest and the files it names that exist. */
export interface EntityEntry {
  manifest: EntityManifest;
  /** The manifest's path (`schemas/<folder>/entity.json`). */
  file: string;
  /** The entity's folder (`schemas/<folder>`). */
  dir: string;
  /** The record schema, once valid against its meta-schema (set by the record-schema rule). */
  schema?: JSONSchema7;
  schemaFile?: string;
  uiFile?: string;
  gridFile?: string;
  editFile?: string;
  /** The other forms (`views`) that exist. */
  viewFiles: string[];
  /** The seed file the manifest names (it may not exist). */
  seedFile?: string;
}

/** An i18n key met in a definition, checked against the locales at the end. */
export interface KeyUse {
  file: string;
  pointer: string;
  key: string;
  group?: boolean;
}

/** What every rule reads and writes. */
export interface CheckContext {
  sources: DefinitionSources;
  implementations: ImplementationNames;
  problems: DefinitionProblem[];
  report: Report;
  /** The parsed JSON of a file known to exist. */
  json<T>(file: string): T;
  /** The files whose path matches, in source order. */
  filesIn(re: RegExp): string[];
  /** Validates a file against a meta-schema, reporting each error; false when invalid. */
  metaValid(file: string, metaId: string): boolean;
  /** A strict ajv with the portal vocabulary, like the server's: catches misspelt keywords. */
  strict: Ajv;
  useKey: UseKey;
  keysUsed: KeyUse[];
  /** Reference lists by kind (filled by the reference-list rule). */
  references: Map<string, ReferenceList>;
  /** Machines by id (filled by the machine rule). */
  machines: Map<string, MachineDefinition>;
  /** Entities by manifest id (filled by the entity rule; schemas by the record-schema rule). */
  entities: Map<string, EntityEntry>;
  /** Every valid manifest in folder order, for per-entity rules (two manifests may claim one id). */
  entityList: EntityEntry[];
  /** Every screen valid against its meta-schema, in file order (filled by the screen rule). */
  screens: Array<{ file: string; screen: ScreenDefinition }>;
  /** access.json as parsed, before or without its own check. */
  accessJson: AccessDefinition | undefined;
}

/** One rule module's entry: a name (for readers and debugging) and what it does to the context. */
export interface CheckRule {
  name: string;
  run(ctx: CheckContext): void;
}

/** Builds the context: loads the meta-schemas (reporting any that do not load) and the strict ajv. */
export function createCheckContext(sources: DefinitionSources, implementations: ImplementationNames): CheckContext {
  const problems: DefinitionProblem[] = [];
  const report: Report = (file, pointer, message) => {
    problems.push({ file, pointer, message });
  };

  const meta = new Ajv({ allErrors: true, strict: false });
  addFormats(meta);
  addPortalVocabulary(meta);
  for (const [file, { json }] of sources) {
    if (!file.startsWith('schemas/_meta/')) continue;
    try {
      meta.addSchema(json as object);
    } catch (error) {
      report(file, '', `invalid meta-schema: ${(error as Error).message}`);
    }
  }
  const validators = new Map<string, ValidateFunction>();
  const validatorFor = (id: string): ValidateFunction | undefined => {
    if (!validators.has(id)) {
      try {
        const v = meta.getSchema(id);
        if (v) validators.set(id, v);
      } catch (error) {
        report(`schemas/_meta/${id}`, '', `meta-schema does not compile: ${(error as Error).message}`);
      }
    }
    return validators.get(id);
  };
  const metaValid = (file: string, metaId: string): boolean => {
    const validate = validatorFor(metaId);
    if (!validate) {
      report(file, '', `meta-schema schemas/_meta/${metaId} is missing`);
      return false;
    }
    if (validate(sources.get(file)!.json)) return true;
    for (const e of validate.errors ?? [])
      report(file, metaErrorPointer(e), metaErrorMessage(e, sources.get(file)!.json, metaId));
    return false;
  };

  const strict = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
  });
  addFormats(strict);
  addPortalVocabulary(strict);

  const keysUsed: KeyUse[] = [];
  return {
    sources,
    implementations,
    problems,
    report,
    json: <T>(file: string): T => sources.get(file)!.json as T,
    filesIn: (re) => [...sources.keys()].filter((f) => re.test(f)),
    metaValid,
    strict,
    useKey: (file, pointer, key, group = false) => {
      if (typeof key === 'string') keysUsed.push({ file, pointer, key, ...(group ? { group } : {}) });
    },
    keysUsed,
    references: new Map(),
    machines: new Map(),
    entities: new Map(),
    entityList: [],
    screens: [],
    accessJson: sources.get(ACCESS_FILE)?.json as AccessDefinition | undefined,
  };
}

/** A meta-schema error in words (see {@link schemaErrorMessage}), naming the meta-schema. */
function metaErrorMessage(e: ErrorObject, json: unknown, metaId: string): string {
  return e.keyword === 'enum' ? schemaErrorMessage(e, json) : `${schemaErrorMessage(e, json)} (${metaId})`;
}

/**
 * An ajv error on `json` in words: an enum's names the value, the allowed ones and the close
 * one (`value "Keyword" is not allowed here; did you mean "keyword"? Allowed: …`); others ajv's.
 * @example schemaErrorMessage(validate.errors[0], record)
 */
export function schemaErrorMessage(e: ErrorObject, json: unknown): string {
  if (e.keyword !== 'enum') return e.message ?? 'invalid';
  const value = getAtPointer(json, e.instancePath);
  const allowed = (e.params.allowedValues as unknown[]).map(String);
  return unknownNameMessage(
    'value',
    typeof value === 'string' ? value : String(JSON.stringify(value)),
    'allowed here',
    allowed,
  );
}

/** The pointer of a meta-schema error: the instance path, plus the property a keyword names. */
function metaErrorPointer(e: ErrorObject): string {
  const extra =
    e.keyword === 'required'
      ? `/${escape(String(e.params.missingProperty))}`
      : e.keyword === 'additionalProperties'
        ? `/${escape(String(e.params.additionalProperty))}`
        : '';
  return `${e.instancePath}${extra}`;
}

/** Checks one field pointer: reported at file#pointer when the field is missing or of the wrong kind. */
export type FieldCheck = (
  file: string,
  pointer: string,
  value: string,
  opts?: { scalar?: boolean; types?: string[] },
) => void;

/**
 * A field check against one record schema: the field exists (system fields included), is a
 * scalar when asked, and of one of the given types.
 * @example createFieldCheck(report, schema, 'schemas/tender/schema.json')('schemas/tender/grid.json', '/columns/0/field', '/subject', { scalar: true })
 */
export function createFieldCheck(report: Report, schema: JSONSchema7, schemaFile: string): FieldCheck {
  return (file, pointer, value, opts = {}) => {
    const target = resolveFieldSchema(schema, value);
    if (!target) {
      // The close one among the fields beside where the pointer stops (top level or nested).
      const parent = value.slice(0, value.lastIndexOf('/'));
      const holder = parent ? resolveFieldSchema(schema, parent) : schema;
      const siblings = Object.keys(holder?.properties ?? {}).map((k) => `${parent}/${escape(k)}`);
      return report(file, pointer, `field "${value}" does not exist in ${schemaFile}${didYouMean(value, siblings)}`);
    }
    const type = scalarType(target);
    if (opts.scalar && (type === 'object' || type === 'array' || !type))
      report(file, pointer, `field "${value}" is not a scalar`);
    if (opts.types && (!type || !opts.types.includes(type)))
      report(file, pointer, `field "${value}" must be of type ${opts.types.join(' or ')}`);
  };
}

/** The entities whose record schema is valid, with it (most rules need one). */
export function* entitiesWithSchema(
  ctx: CheckContext,
): Generator<EntityEntry & { schema: JSONSchema7; schemaFile: string }> {
  for (const entry of ctx.entityList) {
    if (entry.schema && entry.schemaFile) yield entry as EntityEntry & { schema: JSONSchema7; schemaFile: string };
  }
}
