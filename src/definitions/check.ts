import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JSONSchema7 } from 'json-schema';
import type { DefinitionSources } from './sources.ts';
import { addPortalVocabulary } from '../shared/validation/vocabulary.ts';
import { deref, isSystemPointer, pointerSegments, resolveFieldSchema, scalarType } from './pointer.ts';
import { LOCALES } from '../shared/locales.ts';
import { createAbility, rulesFromPermissions } from '../shared/ability.ts';
import type {
  EntityManifest,
  GridDefinition,
  MachineDefinition,
  Transition,
  ReferenceList,
  ScreenDefinition,
  UiDefinition,
  AccessDefinition,
  SeedFile,
  OpenDataset,
  RecordAction,
  EditRules,
} from '../generated/meta.ts';
import { SEED_GENERATORS } from './seed-generators.ts';
import { checkEditRules } from './check/edit-rules.ts';

/** Subjects of subsystems that are not entities (the staff messenger, src/server/messenger). */
export const SUBSYSTEM_SUBJECTS = ['Message'] as const;

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
  /** Integration ids of the adapter registry (src/server/integrations/adapters.ts); unchecked when absent. */
  adapters?: Iterable<string>;
}

const META_FOR = {
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
  edit: 'edit.schema.json',
} as const;

const uiFileOrNone = (f: string | undefined): string[] => (f ? [f] : []);
const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Formats a checker problem the way `npm run check` prints it. */
export const formatProblem = (p: DefinitionProblem): string => `${p.file}#${p.pointer || '/'}: ${p.message}`;

/**
 * Validates every definition against its meta-schema and every cross-reference between
 * definitions (fields, files, machines, implementations, screens, reference lists and the
 * i18n keys of all four locales). Returns all problems found; an empty list means valid.
 */
export function checkDefinitions(sources: DefinitionSources, implementations: ImplementationNames): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const report = (file: string, pointer: string, message: string): void => {
    problems.push({ file, pointer, message });
  };

  // --- meta-schemas -----------------------------------------------------------------
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
    for (const e of validate.errors ?? []) report(file, metaErrorPointer(e), `${e.message ?? 'invalid'} (${metaId})`);
    return false;
  };

  // A strict ajv, like the server's, catches misspelt keywords in record schemas.
  const strict = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, strictRequired: false });
  addFormats(strict);
  addPortalVocabulary(strict);

  // --- i18n keys, collected as they are met and checked at the end --------------------
  const keysUsed: Array<{ file: string; pointer: string; key: string; group?: boolean }> = [];
  const useKey = (file: string, pointer: string, key: unknown, group = false): void => {
    if (typeof key === 'string') keysUsed.push({ file, pointer, key, ...(group ? { group } : {}) });
  };
  /** Screen options name texts by properties ending in `Key` (a group of texts for `contentKey`). */
  const useOptionKeys = (file: string, pointer: string, value: unknown): void => {
    if (Array.isArray(value)) value.forEach((v, i) => useOptionKeys(file, `${pointer}/${i}`, v));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        // `schema`/`uiSchema` are checked as forms are; titles there are keys by another rule.
        if (k === 'schema' || k === 'uiSchema') continue;
        if (k.endsWith('Key') && typeof v === 'string') useKey(file, `${pointer}/${k}`, v, k === 'contentKey');
        else useOptionKeys(file, `${pointer}/${k}`, v);
      }
    }
  };

  const json = <T>(file: string): T => sources.get(file)!.json as T;
  const filesIn = (re: RegExp): string[] => [...sources.keys()].filter((f) => re.test(f));

  // --- reference lists ------------------------------------------------------------------
  const references = new Map<string, ReferenceList>();
  for (const file of filesIn(/^schemas\/_reference\/[^/]+\.json$/)) {
    if (!metaValid(file, META_FOR.reference)) continue;
    const list = json<ReferenceList>(file);
    const name = file.slice('schemas/_reference/'.length, -'.json'.length);
    if (list.kind !== name) report(file, '/kind', `kind "${list.kind}" must equal the file name "${name}"`);
    references.set(list.kind, list);
  }
  for (const [kind, list] of references) {
    const file = `schemas/_reference/${kind}.json`;
    const ids = new Set<number>();
    const codes = new Set<string>();
    const parentIds = list.parentKind ? new Set(references.get(list.parentKind)?.items.map((i) => i.id)) : undefined;
    if (list.parentKind && !references.has(list.parentKind)) report(file, '/parentKind', `reference list "${list.parentKind}" does not exist`);
    list.items.forEach((item, i) => {
      if (ids.has(item.id)) report(file, `/items/${i}/id`, `duplicate id ${item.id}`);
      if (codes.has(item.code)) report(file, `/items/${i}/code`, `duplicate code "${item.code}"`);
      ids.add(item.id);
      codes.add(item.code);
      if (item.parent != null && parentIds && !parentIds.has(item.parent)) {
        report(file, `/items/${i}/parent`, `parent ${item.parent} is not an id of "${list.parentKind}"`);
      }
      if (item.parent != null && !list.parentKind) report(file, `/items/${i}/parent`, 'parent given but the list has no parentKind');
    });
  }

  // --- machines -------------------------------------------------------------------------
  const machines = new Map<string, MachineDefinition>();
  const guards = new Set(implementations.guards);
  const actions = new Set(implementations.actions);
  const delays = new Set(implementations.delays);
  const checks = new Set(implementations.checks);
  for (const file of filesIn(/^workflows\/[^/]+$/)) {
    if (!file.endsWith('.machine.json')) {
      report(file, '', 'files in workflows/ must be named <id>.machine.json');
      continue;
    }
    if (!metaValid(file, META_FOR.machine)) continue;
    const machine = json<MachineDefinition>(file);
    const name = file.slice('workflows/'.length, -'.machine.json'.length);
    if (machine.id !== name) report(file, '/id', `id "${machine.id}" must equal the file name "${name}"`);
    machines.set(machine.id, machine);
    checkMachine(file, machine, { guards, actions, delays, checks }, report, useKey);
    checkMachineTexts(file, machine, strict, report, useKey);
  }

  // A notice's contact field that no entity following the machine has (an entity without it simply gets no such notice).
  const noticeContacts = new Map<string, { pointer: string; lacking: string[] }>();
  const followerCount = new Map<string, number>();

  // --- entities -------------------------------------------------------------------------
  const entities = new Map<string, { manifest: EntityManifest; schema?: JSONSchema7 }>();
  const bases = new Map<string, string>();
  const subjects = new Map<string, string>();
  const questionnaires: Array<{ file: string; responses: { entity: string; parentField: string } }> = [];
  for (const file of filesIn(/^schemas\/[^_][^/]*\/entity\.json$/)) {
    const dir = file.slice(0, -'/entity.json'.length);
    const folder = dir.slice('schemas/'.length);
    const claimed = new Set([file]);
    if (!metaValid(file, META_FOR.entity)) continue;
    const manifest = json<EntityManifest>(file);
    if (manifest.id !== folder) report(file, '/id', `id "${manifest.id}" must equal the folder name "${folder}"`);
    useKey(file, '/titleKey', manifest.titleKey);
    if (bases.has(manifest.base)) report(file, '/base', `base "${manifest.base}" is already used by ${bases.get(manifest.base)}`);
    bases.set(manifest.base, file);
    if (subjects.has(manifest.subject)) report(file, '/subject', `subject "${manifest.subject}" is already used by ${subjects.get(manifest.subject)}`);
    subjects.set(manifest.subject, file);
    if (manifest.workflow && !machines.has(manifest.workflow) && !sources.has(`workflows/${manifest.workflow}.machine.json`)) {
      report(file, '/workflow', `machine workflows/${manifest.workflow}.machine.json does not exist`);
    }
    if (manifest.remoteSource && implementations.adapters && ![...implementations.adapters].includes(manifest.remoteSource.adapter)) {
      report(file, '/remoteSource/adapter', `adapter "${manifest.remoteSource.adapter}" is not in the integration registry`);
    }
    if (manifest.workflow && manifest.initialStatus) report(file, '/initialStatus', 'an entity with a workflow takes its initial status from the machine');
    if (manifest.workflow && machines.has(manifest.workflow)) checkEventAbilities(file, manifest, machines.get(manifest.workflow)!, sources.get('schemas/_access/access.json')?.json as AccessDefinition | undefined, report);

    const fileOf = (key: 'schema' | 'ui' | 'grid' | 'edit'): string | undefined => {
      const name = manifest[key];
      if (!name) return undefined;
      const path = `${dir}/${name}`;
      claimed.add(path);
      if (!sources.has(path)) {
        report(file, `/${key}`, `file ${path} does not exist`);
        return undefined;
      }
      return path;
    };
    const schemaFile = fileOf('schema');
    const uiFile = fileOf('ui');
    const gridFile = fileOf('grid');
    const editFile = fileOf('edit');
    const viewFiles = Object.entries(manifest.views ?? {}).flatMap(([name, viewFile]) => {
      const path = `${dir}/${viewFile}`;
      claimed.add(path);
      if (sources.has(path)) return [path];
      report(file, `/views/${escape(name)}`, `file ${path} does not exist`);
      return [];
    });
    const seedFile = manifest.seed?.file ? `${dir}/${manifest.seed.file}` : undefined;
    if (seedFile) {
      claimed.add(seedFile);
      if (!sources.has(seedFile)) report(file, '/seed/file', `file ${seedFile} does not exist`);
    }
    for (const other of filesIn(new RegExp(`^${dir}/[^/]+$`))) {
      if (!claimed.has(other)) report(other, '', `not named by ${file}`);
    }
    let schema: JSONSchema7 | undefined;
    if (schemaFile && metaValid(schemaFile, META_FOR.record)) {
      schema = json<JSONSchema7>(schemaFile);
      try {
        strict.compile(schema);
      } catch (error) {
        report(schemaFile, '', `does not compile: ${(error as Error).message}`);
      }
      checkRecordSchema(schemaFile, schema, references, report, useKey);
    }
    entities.set(manifest.id, { manifest, schema });
    if (!schema) continue;

    const field = (f: string, pointer: string, value: string, opts: { scalar?: boolean; types?: string[] } = {}): void => {
      const target = resolveFieldSchema(schema!, value);
      if (!target) return report(f, pointer, `field "${value}" does not exist in ${schemaFile}`);
      const type = scalarType(target);
      if (opts.scalar && (type === 'object' || type === 'array' || !type)) report(f, pointer, `field "${value}" is not a scalar`);
      if (opts.types && (!type || !opts.types.includes(type))) report(f, pointer, `field "${value}" must be of type ${opts.types.join(' or ')}`);
    };
    manifest.keywordFields?.forEach((p, i) => field(file, `/keywordFields/${i}`, p, { types: ['string'] }));
    if (manifest.labelField) field(file, '/labelField', manifest.labelField, { scalar: true });
    if (manifest.scope?.regionField) field(file, '/scope/regionField', manifest.scope.regionField, { types: ['integer'] });
    manifest.scope?.recipients?.forEach((r, i) => field(file, `/scope/recipients/${i}/field`, r.field, { types: ['string'] }));
    if (manifest.stampOnDownload) {
      field(file, '/stampOnDownload', manifest.stampOnDownload, { types: ['string'] });
      if (!manifest.scope?.recipients) report(file, '/stampOnDownload', 'a download stamp needs scope.recipients (whose download counts)');
    }
    manifest.unique?.forEach((p, i) => field(file, `/unique/${i}`, p, { scalar: true }));
    if (manifest.tree) {
      field(file, '/tree/parentField', manifest.tree.parentField, { types: ['integer'] });
      if (manifest.tree.sortField) field(file, '/tree/sortField', manifest.tree.sortField, { scalar: true });
    }
    if (manifest.photo) field(file, '/photo/field', manifest.photo.field);
    if (manifest.seed) {
      // A key names records ("missing" looks them up, {"$seed"} points at them); "empty" needs none.
      if (manifest.seed.key) {
        field(file, '/seed/key', manifest.seed.key, { scalar: true });
        if (!manifest.unique?.includes(manifest.seed.key)) report(file, '/seed/key', `seed key "${manifest.seed.key}" must be one of the manifest's unique fields`);
      } else if (manifest.seed.when === 'missing') report(file, '/seed/key', 'a seed with when "missing" needs a key');
      if (manifest.seed.generator && !SEED_GENERATORS.has(manifest.seed.generator)) report(file, '/seed/generator', `seed generator "${manifest.seed.generator}" does not exist`);
    }
    if (seedFile && sources.has(seedFile) && metaValid(seedFile, META_FOR.seed)) {
      const validate = strict.compile(schema);
      const keyName = manifest.seed!.key?.slice(1);
      const keys = new Set<string>();
      json<SeedFile>(seedFile).records.forEach((record: Record<string, unknown>, i) => {
        const placeholder = (v: unknown): boolean => Boolean(v && typeof v === 'object' && '$seed' in v);
        for (const [name, v] of Object.entries(record)) {
          if (placeholder(v) && !keyName) report(seedFile, `/records/${i}/${escape(name)}`, 'a {"$seed"} reference needs the manifest\'s seed.key');
          else if (placeholder(v) && !keys.has(String((v as { $seed: unknown }).$seed))) report(seedFile, `/records/${i}/${escape(name)}`, `no earlier record has ${manifest.seed!.key} = "${String((v as { $seed: unknown }).$seed)}"`);
        }
        const resolved = Object.fromEntries(Object.entries(record).map(([k, v]) => [k, placeholder(v) ? 1 : v]));
        if (!validate(resolved)) for (const e of validate.errors ?? []) report(seedFile, `/records/${i}${e.instancePath}`, e.message ?? 'invalid');
        if (keyName) keys.add(String((record as Record<string, unknown>)[keyName]));
      });
    }
    for (const [name, aggregate] of Object.entries(manifest.aggregates ?? {})) {
      const at = `/aggregates/${escape(name)}`;
      aggregate.groupBy?.forEach((p, i) => field(file, `${at}/groupBy/${i}`, p, { scalar: true }));
      if (aggregate.dateBucket) field(file, `${at}/dateBucket/field`, aggregate.dateBucket.field, { types: ['string'] });
      aggregate.measures.forEach((m, i) => {
        if (m.fn === 'count') return;
        if (!m.field) report(file, `${at}/measures/${i}`, `measure "${m.name}" (${m.fn}) needs a field`);
        else field(file, `${at}/measures/${i}/field`, m.field, { types: ['integer', 'number'] });
      });
    }
    if (manifest.localeField) field(file, '/localeField', manifest.localeField, { types: ['string'] });
    if (manifest.questionnaire) {
      const q = manifest.questionnaire;
      field(file, '/questionnaire/questionsField', q.questionsField, { types: ['array'] });
      field(file, '/questionnaire/openFromField', q.openFromField, { types: ['string'] });
      field(file, '/questionnaire/openToField', q.openToField, { types: ['string'] });
      if (q.passMarkField) field(file, '/questionnaire/passMarkField', q.passMarkField, { types: ['integer', 'number'] });
      if (q.showResultsField) field(file, '/questionnaire/showResultsField', q.showResultsField, { types: ['boolean'] });
      q.publicFields.forEach((p, i) => field(file, `/questionnaire/publicFields/${i}`, p));
      // The responses entity may come later in the folder order: checked after the loop.
      questionnaires.push({ file, responses: q.responses });
    }
    if (manifest.workflow && machines.has(manifest.workflow)) {
      const machineFile = `workflows/${manifest.workflow}.machine.json`;
      for (const missing of checkMachineFields(machineFile, machines.get(manifest.workflow)!, schema, schemaFile!, report)) {
        const seen = noticeContacts.get(`${machineFile}#${missing.at}`) ?? { pointer: missing.pointer, lacking: [] as string[] };
        seen.lacking.push(schemaFile!);
        noticeContacts.set(`${machineFile}#${missing.at}`, seen);
      }
      followerCount.set(machineFile, (followerCount.get(machineFile) ?? 0) + 1);
    }

    if (editFile && metaValid(editFile, META_FOR.edit)) {
      checkEditRules(editFile, json<EditRules>(editFile), {
        manifest, schema, schemaFile: schemaFile!,
        machine: manifest.workflow ? machines.get(manifest.workflow) : undefined,
        access: sources.get('schemas/_access/access.json')?.json as AccessDefinition | undefined,
      }, report);
    }

    if (gridFile && metaValid(gridFile, META_FOR.grid)) {
      const grid = json<GridDefinition>(gridFile);
      grid.columns.forEach((c, i) => {
        field(gridFile, `/columns/${i}/field`, c.field, { scalar: c.sortable === true });
        useKey(gridFile, `/columns/${i}/titleKey`, c.titleKey);
        if (c.reference && !references.has(c.reference)) report(gridFile, `/columns/${i}/reference`, `reference list "${c.reference}" does not exist`);
        if (c.format === 'reference' && !c.reference) report(gridFile, `/columns/${i}`, 'a reference column must name its reference list');
      });
      grid.defaultSort.forEach((s, i) => field(gridFile, `/defaultSort/${i}/field`, s.field, { scalar: true }));
      const filterNames = new Set<string>();
      grid.filters.forEach((flt, i) => {
        if (filterNames.has(flt.name)) report(gridFile, `/filters/${i}/name`, `duplicate filter "${flt.name}"`);
        filterNames.add(flt.name);
        useKey(gridFile, `/filters/${i}/titleKey`, flt.titleKey);
        if (flt.kind === 'keyword') {
          if (!manifest.keywordFields?.length) report(gridFile, `/filters/${i}`, `a keyword filter needs keywordFields in ${file}`);
        } else if (flt.field) {
          const types = { dateRange: ['string'], range: ['number', 'integer'], bool: ['boolean'] }[flt.kind as string];
          field(gridFile, `/filters/${i}/field`, flt.field, { scalar: true, ...(types ? { types } : {}) });
        }
        if (flt.reference && !references.has(flt.reference)) report(gridFile, `/filters/${i}/reference`, `reference list "${flt.reference}" does not exist`);
      });
      grid.filters.forEach((flt, i) => {
        if (flt.parentFilter && !filterNames.has(flt.parentFilter)) report(gridFile, `/filters/${i}/parentFilter`, `filter "${flt.parentFilter}" does not exist`);
      });
      for (const name of Object.keys(manifest.remoteSource?.params ?? {})) {
        const flt = grid.filters.find((f) => f.name === name);
        if (flt?.kind !== 'eq') report(file, `/remoteSource/params/${escape(name)}`, `"${name}" must be an eq filter of ${gridFile}`);
      }
    }

    for (const formFile of [...uiFileOrNone(uiFile), ...viewFiles]) {
      if (!metaValid(formFile, META_FOR.ui)) continue;
      const ui = json<UiDefinition>(formFile);
      checkUiSchema(formFile, '/uiSchema', ui.uiSchema, schema, schema, report, useKey);
      if (ui.wizard) {
        const seen = new Map<string, string>();
        ui.wizard.steps.forEach((step, i) => {
          useKey(formFile, `/wizard/steps/${i}/titleKey`, step.titleKey);
          step.fields.forEach((p, j) => {
            const at = `/wizard/steps/${i}/fields/${j}`;
            field(formFile, at, p);
            if (seen.has(p)) report(formFile, at, `field "${p}" is already in step "${seen.get(p)}"`);
            seen.set(p, step.id);
          });
        });
        if (!ui.wizard.partial) {
          for (const prop of Object.keys(schema.properties ?? {})) {
            if (!seen.has(`/${prop}`)) report(formFile, '/wizard/steps', `field "/${prop}" is in no wizard step`);
          }
        }
        useKey(formFile, '/wizard/confirmKey', ui.wizard.confirmKey);
      }
    }
  }
  for (const [id, { manifest, schema }] of entities) {
    const schemaFile = `schemas/${id}/${manifest.schema}`;
    for (const { pointer, entity } of entityRefsOf(schema)) {
      if (!entities.has(entity)) report(schemaFile, `${pointer}/entityRef/entity`, `entity "${entity}" does not exist`);
    }
  }
  for (const [file] of sources) {
    const m = /^schemas\/([^_/][^/]*)\/[^/]+$/.exec(file);
    if (m && !sources.has(`schemas/${m[1]}/entity.json`)) report(file, '', `folder schemas/${m[1]} has no entity.json`);
  }

  for (const [where, seen] of noticeContacts) {
    const [machineFile, at] = where.split('#') as [string, string];
    if (seen.lacking.length === followerCount.get(machineFile)) report(machineFile, at, `field "${seen.pointer}" exists in no entity following the machine (${seen.lacking.join(', ')})`);
  }

  for (const { file, responses } of questionnaires) {
    const target = entities.get(responses.entity);
    if (!target) report(file, '/questionnaire/responses/entity', `entity "${responses.entity}" does not exist`);
    else if (target.schema) {
      const parent = resolveFieldSchema(target.schema, responses.parentField);
      if (!parent || scalarType(parent) !== 'integer') report(file, '/questionnaire/responses/parentField', `field "${responses.parentField}" must be an integer field of ${responses.entity}`);
      // The route stores {<parent>, answers, score?, maxScore?, passed?}: the schema must take them.
      if (!resolveFieldSchema(target.schema, '/answers')) report(file, '/questionnaire/responses/entity', `${responses.entity} must have an "answers" array`);
    }
  }

  // --- reference lists kept as an entity's records ---------------------------------------
  for (const [kind, list] of references) {
    if (!list.entity) continue;
    const file = `schemas/_reference/${kind}.json`;
    const backing = entities.get(list.entity);
    if (!backing) report(file, '/entity', `entity "${list.entity}" does not exist`);
    else {
      const props = (backing.schema?.properties ?? {}) as Record<string, JSONSchema7>;
      for (const name of ['code', 'nameLt', 'nameUz', 'nameRu', 'nameEn']) if (props[name]?.type !== 'string') report(file, '/entity', `entity "${list.entity}" needs a string field ${name}`);
      if (props.active && props.active.type !== 'boolean') report(file, '/entity', `the field active of "${list.entity}" must be a boolean`);
      if (props.order && props.order.type !== 'integer') report(file, '/entity', `the field order of "${list.entity}" must be an integer`);
    }
    if (list.items.length) report(file, '/items', 'a list kept as an entity\'s records has no items here (the entity\'s seed holds them)');
    if (list.parentKind) report(file, '/parentKind', 'a list kept as an entity\'s records is flat');
  }

  // --- screens ----------------------------------------------------------------------------
  const routes = new Map<string, string>();
  for (const file of filesIn(/^screens\/[^/]+$/)) {
    if (!metaValid(file, META_FOR.screen)) continue;
    const screen = json<ScreenDefinition>(file);
    const name = file.slice('screens/'.length, -'.json'.length);
    if (screen.id !== name) report(file, '/id', `id "${screen.id}" must equal the file name "${name}"`);
    if (screen.entity && !entities.has(screen.entity)) report(file, '/entity', `entity "${screen.entity}" does not exist`);
    if (routes.has(screen.route)) report(file, '/route', `route "${screen.route}" is already used by ${routes.get(screen.route)}`);
    routes.set(screen.route, file);
    useKey(file, '/titleKey', screen.titleKey);
    if (screen.menu) useKey(file, '/menu/section', screen.menu.section);
    useOptionKeys(file, '/options', screen.options);
    const view = (screen.options as { view?: string } | undefined)?.view;
    if ((screen.options as { drafts?: boolean } | undefined)?.drafts && screen.entity && !entities.get(screen.entity)?.manifest.drafts) {
      report(file, '/options/drafts', `entity "${screen.entity}" does not allow drafts (manifest "drafts": true)`);
    }
    const target = screen.entity ? entities.get(screen.entity) : undefined;
    if (view && target && !target.manifest.views?.[view]) report(file, '/options/view', `entity "${screen.entity}" has no view "${view}"`);
    if (screen.kind === 'flow') {
      const options = screen.options!;
      options.steps?.forEach((step, i) => {
        const at = `/options/steps/${i}`;
        for (const k of ['titleKey', 'submitKey', 'doneKey'] as const) useKey(file, `${at}/${k}`, step[k]);
        step.actions?.forEach((a, j) => {
          useKey(file, `${at}/actions/${j}/labelKey`, a.labelKey);
          useKey(file, `${at}/actions/${j}/doneKey`, a.doneKey);
        });
        checkRecordSchema(file, step.schema as JSONSchema7, references, report, useKey);
        const fields = Object.keys((step.schema as JSONSchema7).properties ?? {});
        step.checks?.forEach((c, j) => {
          if (!fields.includes(c.field)) report(file, `${at}/checks/${j}/field`, `the step has no field "${c.field}"`);
        });
      });
      useKey(file, '/options/finish/doneKey', options.finish?.doneKey);
    }
    const actions = (screen.options as { recordActions?: RecordAction[] } | undefined)?.recordActions;
    actions?.forEach((action, i) => {
      const at = `/options/recordActions/${i}`;
      if (screen.kind !== 'detail' || !target) report(file, at, 'recordActions need a detail screen of an entity');
      checkRecordSchema(file, action.schema as JSONSchema7, references, report, useKey);
      for (const [name, pointer] of Object.entries(action.fromRecord ?? {})) {
        if (target?.schema && pointer !== '/id' && !resolveFieldSchema(target.schema, pointer)) report(file, `${at}/fromRecord/${name}`, `entity "${screen.entity}" has no field ${pointer}`);
      }
      // Every value the call sends must come from the form or from the record.
      const known = new Set([...Object.keys((action.schema as JSONSchema7).properties ?? {}), ...Object.keys(action.fromRecord ?? {})]);
      const named = [...(action.endpoint.query ?? []), ...(action.endpoint.body ?? []), ...[...action.endpoint.path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!)];
      for (const name of named) if (!known.has(name)) report(file, `${at}/endpoint`, `"${name}" is neither a field of the action's form nor in fromRecord`);
    });
    if ((screen.options as { plainStatus?: boolean } | undefined)?.plainStatus && target) {
      // The applicant's plain-words status: one sentence for every state the record can be in.
      const machine = target.manifest.workflow ? machines.get(target.manifest.workflow) : undefined;
      if (!machine || screen.kind !== 'detail') report(file, '/options/plainStatus', 'plainStatus needs a detail screen of an entity with a workflow');
      for (const state of Object.keys(machine?.states ?? {})) useKey(file, '/options/plainStatus', `workflow.${machine!.id}.plain.${state}`);
    }
    if (screen.kind === 'tree' && target && !target.manifest.tree) report(file, '/kind', `entity "${screen.entity}" has no tree (manifest "tree": {"parentField"})`);
    const photoRoute = (screen.options as { photoRoute?: string } | undefined)?.photoRoute;
    if (photoRoute && ![...entities.values()].some((e) => e.manifest.photo?.route === photoRoute)) report(file, '/options/photoRoute', `no manifest has photo.route "${photoRoute}"`);
    if (screen.kind === 'wizard' && target) {
      const uiName = view ? target.manifest.views?.[view] : target.manifest.ui;
      if (!(sources.get(`schemas/${screen.entity}/${uiName ?? ''}`)?.json as UiDefinition | undefined)?.wizard) {
        report(file, '/kind', `entity "${screen.entity}" has no wizard steps in ${uiName ?? 'its ui definition'}`);
      }
    }
  }

  // --- open data ----------------------------------------------------------------------------
  for (const file of filesIn(/^schemas\/_opendata\/[^/]+$/)) {
    if (!metaValid(file, META_FOR.openData)) continue;
    const dataset = json<OpenDataset>(file);
    if (file !== `schemas/_opendata/${dataset.code}.json`) report(file, '/code', `code "${dataset.code}" must equal the file name`);
    useKey(file, '/titleKey', dataset.titleKey);
    useKey(file, '/descriptionKey', dataset.descriptionKey);
    // The catalogue shows the frequency in the visitor's language.
    useKey(file, '/updateFrequency', `openData.frequency.${dataset.updateFrequency}`);
    const source = entities.get(dataset.entity);
    if (!source) {
      report(file, '/entity', `entity "${dataset.entity}" does not exist`);
      continue;
    }
    // Downloads are for anyone: a source whose rows are not public would publish nothing (or too much).
    if (!source.manifest.publicRead) report(file, '/entity', `entity "${dataset.entity}" is not a public registry (publicRead)`);
    const fieldOk = (pointer: string, at: string) => {
      const target = source.schema ? resolveFieldSchema(source.schema, pointer) : undefined;
      const type = target ? scalarType(target) : undefined;
      if (!isSystemPointer(pointer) && (!type || type === 'object' || type === 'array')) report(file, at, `"${pointer}" is not a scalar field of ${dataset.entity}`);
    };
    dataset.fields.forEach((f, i) => fieldOk(f.field, `/fields/${i}/field`));
    dataset.sort?.forEach((f, i) => fieldOk(f.field, `/sort/${i}/field`));
    // Fixed filters are list-search query values: each must be one of the source grid's filters.
    const gridFile = `schemas/${dataset.entity}/${source.manifest.grid}`;
    const gridFilters = sources.has(gridFile) ? json<GridDefinition>(gridFile).filters.flatMap((g) => [g.name, `${g.name}From`, `${g.name}To`]) : [];
    for (const name of Object.keys(dataset.filters ?? {})) {
      if (!gridFilters.includes(name)) report(file, `/filters/${name}`, `"${name}" is not a filter of ${gridFile}`);
    }
  }

  // --- access -------------------------------------------------------------------------------
  for (const file of filesIn(/^schemas\/_access\/[^/]+$/)) {
    if (file !== 'schemas/_access/access.json') {
      report(file, '', 'schemas/_access holds only access.json');
      continue;
    }
    if (!metaValid(file, META_FOR.access)) continue;
    const access = json<AccessDefinition>(file);
    for (const key of ['userEntity', 'roleEntity', 'employeeEntity'] as const) {
      const id = access[key];
      if (id !== undefined && !entities.has(id)) report(file, `/${key}`, `entity "${id}" does not exist`);
    }
    const unitPermissions = access.unitPermissions;
    if (unitPermissions) {
      const at = '/unitPermissions';
      const fieldOf = (entity: string | undefined, pointer: string, key: string, type: string): void => {
        const target = entity ? entities.get(entity) : undefined;
        if (!target) return report(file, key === 'entity' ? `${at}/entity` : `${at}/${key}`, `entity "${entity ?? ''}" does not exist`);
        const t = target.schema ? resolveFieldSchema(target.schema, pointer) : undefined;
        if (!t) return report(file, `${at}/${key}`, `field "${pointer}" does not exist in "${entity}"`);
        if (scalarType(t) !== type) report(file, `${at}/${key}`, `field "${pointer}" of "${entity}" must be of type ${type}`);
      };
      fieldOf(unitPermissions.entity, unitPermissions.typeField, 'typeField', 'integer');
      fieldOf(unitPermissions.entity, unitPermissions.unitField, 'unitField', 'integer');
      fieldOf(unitPermissions.entity, unitPermissions.permissionsField, 'permissionsField', 'array');
      fieldOf(unitPermissions.unitEntity, unitPermissions.unitTypeField, 'unitTypeField', 'integer');
      fieldOf(access.employeeEntity, unitPermissions.employeeUnitField, 'employeeUnitField', 'integer');
    }
    if (access.employeeUserField) {
      const employee = access.employeeEntity ? entities.get(access.employeeEntity)?.schema : undefined;
      if (!access.employeeEntity) report(file, '/employeeUserField', 'needs employeeEntity');
      else if (employee && scalarType(resolveFieldSchema(employee, access.employeeUserField) ?? {}) !== 'integer') report(file, '/employeeUserField', `field "${access.employeeUserField}" is no integer field of "${access.employeeEntity}"`);
    }
    const subjectNames = new Set(['all', ...SUBSYSTEM_SUBJECTS, ...[...entities.values()].map((e) => e.manifest.subject)]);
    const checkPermissions = (list: string[], at: string) => list.forEach((p, i) => {
      const subject = p.slice(p.indexOf(' ') + 1);
      if (!subjectNames.has(subject)) report(file, `${at}/${i}`, `subject "${subject}" is no entity's subject (nor "all", nor a subsystem's: ${SUBSYSTEM_SUBJECTS.join(', ')})`);
    });
    checkPermissions(access.guest.permissions, '/guest/permissions');
    const codes = new Set<string>();
    access.roles.forEach((role, i) => {
      if (codes.has(role.code)) report(file, `/roles/${i}/code`, `duplicate role "${role.code}"`);
      codes.add(role.code);
      checkPermissions(role.permissions, `/roles/${i}/permissions`);
      const ability = createAbility(rulesFromPermissions(role.permissions));
      for (const list of ['readOnlyFields', 'hiddenFields'] as const) {
        const seen = new Set<string>();
        (role[list] ?? []).forEach((rule, j) => {
          const at = `/roles/${i}/${list}/${j}`;
          if (seen.has(rule.subject)) report(file, `${at}/subject`, `subject "${rule.subject}" is listed twice in this role`);
          seen.add(rule.subject);
          const target = [...entities.values()].find((e) => e.manifest.subject === rule.subject);
          if (!target) return report(file, `${at}/subject`, `subject "${rule.subject}" is no entity's subject`);
          // Hidden fields are "cannot read" rules: without the read permission they restrict nothing.
          if (list === 'hiddenFields' && !ability.can('read', rule.subject)) report(file, `${at}/subject`, `the role may not read "${rule.subject}": hiding its fields restricts nothing`);
          rule.fields.forEach((pointer, k) => {
            if (isSystemPointer(pointer)) report(file, `${at}/fields/${k}`, list === 'readOnlyFields' ? `"${pointer}" is a server-owned field: no client changes it anyway` : `"${pointer}" is a server-owned field: every reader needs it`);
            else if (target.schema && !resolveFieldSchema(target.schema, pointer)) report(file, `${at}/fields/${k}`, `entity "${target.manifest.id}" has no field "${pointer}"`);
          });
        });
      }
    });
    if (!codes.has(access.adminRole)) report(file, '/adminRole', `role "${access.adminRole}" is not among the roles`);
    access.outerRoles.forEach((code, i) => {
      if (!codes.has(code)) report(file, `/outerRoles/${i}`, `role "${code}" is not among the roles`);
    });
    access.outerRolesYur?.forEach((code, i) => {
      if (!codes.has(code)) report(file, `/outerRolesYur/${i}`, `role "${code}" is not among the roles`);
    });
  }

  // --- locales ------------------------------------------------------------------------------
  const leafSets = new Map<string, Set<string>>();
  for (const locale of LOCALES) {
    const file = `src/i18n/locales/${locale}.json`;
    const data = sources.get(file)?.json;
    if (!data || typeof data !== 'object') {
      report(file, '', 'locale file is missing');
      continue;
    }
    const leaves = new Set<string>();
    collectLeaves(file, '', data, leaves, report);
    leafSets.set(locale, leaves);
  }
  const allKeys = new Set([...leafSets.values()].flatMap((s) => [...s]));
  for (const key of [...allKeys].sort()) {
    const missing = [...leafSets].filter(([, s]) => !s.has(key)).map(([l]) => l);
    if (missing.length && missing.length < leafSets.size) {
      for (const l of missing) report(`src/i18n/locales/${l}.json`, `/${key.split('.').map(escape).join('/')}`, `key "${key}" exists in other locales but not here`);
    }
  }
  for (const { file, pointer, key, group } of keysUsed) {
    const missing = [...leafSets].filter(([, s]) => !s.has(key) && !(group && [...s].some((leaf) => leaf.startsWith(`${key}.`)))).map(([l]) => l);
    if (missing.length) report(file, pointer, `i18n key "${key}" is missing in ${missing.join(', ')}`);
  }
  return problems;
}

/** Every `entityRef` of a record schema, with its schema pointer. */
function entityRefsOf(schema: JSONSchema7 | undefined): Array<{ pointer: string; entity: string }> {
  const out: Array<{ pointer: string; entity: string }> = [];
  const walk = (node: unknown, pointer: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${pointer}/${i}`));
    const ref = (node as { entityRef?: { entity?: unknown } }).entityRef;
    if (ref && typeof ref.entity === 'string') out.push({ pointer, entity: ref.entity });
    for (const [k, v] of Object.entries(node)) if (k !== 'entityRef' && typeof v === 'object') walk(v, `${pointer}/${escape(k)}`);
  };
  walk(schema, '');
  return out;
}

function metaErrorPointer(e: ErrorObject): string {
  const extra = e.keyword === 'required' ? `/${escape(String(e.params.missingProperty))}`
    : e.keyword === 'additionalProperties' ? `/${escape(String(e.params.additionalProperty))}` : '';
  return `${e.instancePath}${extra}`;
}

type Report = (file: string, pointer: string, message: string) => void;
type UseKey = (file: string, pointer: string, key: unknown) => void;

function collectLeaves(file: string, prefix: string, node: unknown, into: Set<string>, report: Report): void {
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') into.add(key);
    else if (v && typeof v === 'object' && !Array.isArray(v)) collectLeaves(file, key, v, into, report);
    else report(file, `/${key.split('.').map(escape).join('/')}`, 'locale values must be strings or objects');
  }
}

/** Titles are i18n keys; every property has one; reference lists and parents exist. */
function checkRecordSchema(file: string, root: JSONSchema7, references: Map<string, ReferenceList>, report: Report, useKey: UseKey): void {
  // `declaring` is false inside if/then/else and combinators: properties there only
  // constrain fields declared elsewhere, so they need no title of their own.
  const walk = (node: unknown, pointer: string, parent?: JSONSchema7, declaring = true): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((n, i) => walk(n, `${pointer}/${i}`, parent, declaring));
      return;
    }
    const schema = node as JSONSchema7 & { reference?: { list: string; parentField?: string } };
    if (typeof schema.title === 'string') useKey(file, `${pointer}/title`, schema.title);
    if (schema.reference) {
      if (!references.has(schema.reference.list)) report(file, `${pointer}/reference/list`, `reference list "${schema.reference.list}" does not exist`);
      const pf = schema.reference.parentField;
      if (pf && !parent?.properties?.[pf]) report(file, `${pointer}/reference/parentField`, `sibling field "${pf}" does not exist`);
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' || key === 'definitions') {
        for (const [name, child] of Object.entries(value as Record<string, JSONSchema7>)) {
          if (declaring && key === 'properties' && typeof child === 'object' && !child.$ref && typeof child.title !== 'string') {
            report(file, `${pointer}/properties/${escape(name)}`, 'property has no title (an i18n key)');
          }
          walk(child, `${pointer}/${key}/${escape(name)}`, schema, declaring);
        }
      } else if (key === 'items' || key === 'additionalItems') {
        walk(value, `${pointer}/${key}`, schema, declaring);
      } else if (['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'not'].includes(key)) {
        walk(value, `${pointer}/${key}`, schema, false);
      }
    }
  };
  walk(root, '');
}

const UI_TEXT_KEYS = ['ui:title', 'ui:description', 'ui:help', 'ui:placeholder'];

/** Every uiSchema key that is not `ui:*` must be a field of the schema at that level. */
function checkUiSchema(file: string, pointer: string, ui: unknown, node: JSONSchema7 | undefined, root: JSONSchema7, report: Report, useKey: UseKey): void {
  if (!ui || typeof ui !== 'object' || Array.isArray(ui)) return;
  for (const [key, value] of Object.entries(ui as Record<string, unknown>)) {
    const at = `${pointer}/${escape(key)}`;
    if (key.startsWith('ui:')) {
      if (UI_TEXT_KEYS.includes(key)) useKey(file, at, value);
      if (key === 'ui:order' && Array.isArray(value)) {
        value.forEach((name, i) => {
          if (name !== '*' && !node?.properties?.[String(name)]) report(file, `${at}/${i}`, `field "${String(name)}" does not exist in the schema`);
        });
      }
      continue;
    }
    if (key === 'items' && scalarType(node ?? {}) === 'array') {
      checkUiSchema(file, at, value, deref(root, node?.items as JSONSchema7), root, report, useKey);
      continue;
    }
    const child = deref(root, node?.properties?.[key]);
    if (!child) {
      report(file, at, `field "${key}" does not exist in the schema`);
      continue;
    }
    checkUiSchema(file, at, value, child, root, report, useKey);
  }
}

/**
 * The i18n keys a machine's screens show (`workflow.<id>.states.<STATE>`, `workflow.<id>.events.<EVENT>`, and
 * `status.<STATE>` for lists)
 * and its payload schemas: each compiles with the record vocabulary and titles its fields with keys.
 */
function checkMachineTexts(file: string, machine: MachineDefinition, ajv: Ajv, report: Report, useKey: UseKey): void {
  for (const [stateName, state] of Object.entries(machine.states)) {
    const base = `/states/${escape(stateName)}`;
    useKey(file, base, `workflow.${machine.id}.states.${stateName}`);
    // Lists label statuses of every entity alike (status.<STATE>).
    useKey(file, base, `status.${stateName}`);
    for (const [event, value] of Object.entries(state.on ?? {})) {
      useKey(file, `${base}/on/${escape(event)}`, `workflow.${machine.id}.events.${event}`);
      (Array.isArray(value) ? value : [value]).forEach((t, i) => {
        t.notify?.forEach((n, j) => {
          if (n.channel === 'system') return;
          const at = `${base}/on/${escape(event)}${Array.isArray(value) ? `/${i}` : ''}/notify/${j}/template`;
          useKey(file, at, `${n.template}.subject`);
          useKey(file, at, `${n.template}.text`);
        });
        if (!t.payload) return;
        const at = `${base}/on/${escape(event)}${Array.isArray(value) ? `/${i}` : ''}/payload`;
        try {
          ajv.compile(t.payload);
        } catch (error) {
          report(file, at, `payload schema does not compile: ${(error as Error).message}`);
        }
        for (const [name, prop] of Object.entries(t.payload.properties as Record<string, JSONSchema7>)) {
          if (typeof prop.title !== 'string') report(file, `${at}/properties/${escape(name)}`, 'payload fields need a title (an i18n key)');
          useKey(file, `${at}/properties/${escape(name)}/title`, prop.title);
        }
      });
    }
  }
}

/**
 * The record fields a machine names exist in the schema of an entity that follows it: each
 * deadline field and each date a payload check compares with (`params.than`) is a date or
 * date-time, each notice's contact and locale field a string.
 */
function checkMachineFields(file: string, machine: MachineDefinition, schema: JSONSchema7, schemaFile: string, report: Report): Array<{ at: string; pointer: string }> {
  const missing: Array<{ at: string; pointer: string }> = [];
  const string = (at: string, pointer: string, formats?: string[]): void => {
    const target = resolveFieldSchema(schema, pointer);
    if (!target) return report(file, at, `field "${pointer}" does not exist in ${schemaFile}`);
    if (scalarType(target) !== 'string') return report(file, at, `field "${pointer}" of ${schemaFile} must be a string`);
    if (formats && !formats.includes(String(target.format))) report(file, at, `field "${pointer}" of ${schemaFile} must have format ${formats.join(' or ')}`);
  };
  for (const [stateName, state] of Object.entries(machine.states)) {
    const base = `/states/${escape(stateName)}`;
    if (state.deadline) string(`${base}/deadline/field`, state.deadline.field, ['date', 'date-time']);
    for (const [event, value] of Object.entries(state.on ?? {})) {
      (Array.isArray(value) ? value : [value]).forEach((t: Transition, i) => {
        t.checks?.forEach((c, j) => {
          const than = typeof c === 'string' ? undefined : (c.params as { than?: unknown } | undefined)?.than;
          if (typeof than === 'string' && than.startsWith('/')) string(`${base}/on/${escape(event)}${Array.isArray(value) ? `/${i}` : ''}/checks/${j}/params/than`, than, ['date', 'date-time']);
        });
        t.notify?.forEach((n, j) => {
          const at = `${base}/on/${escape(event)}${Array.isArray(value) ? `/${i}` : ''}/notify/${j}`;
          if (n.channel === 'system') return;
          // A contact field one follower lacks means no such notice for it; lacking in all is a mistake (reported by the caller).
          if (!resolveFieldSchema(schema, n.to)) missing.push({ at: `${at}/to`, pointer: n.to });
          else string(`${at}/to`, n.to);
          if (n.locale && resolveFieldSchema(schema, n.to)) string(`${at}/locale`, n.locale);
        });
      });
    }
  }
  return missing;
}

/**
 * Every event of an entity's machine is granted to some role as "<EVENT> <Subject>" (else only
 * admins could send it) — except deadline events, which the sweep sends as the system.
 */
function checkEventAbilities(file: string, manifest: EntityManifest, machine: MachineDefinition, access: AccessDefinition | undefined, report: Report): void {
  if (!access) return;
  const granted = new Set(access.roles.flatMap((r) => r.permissions));
  const events = new Set(Object.values(machine.states).flatMap((s) => Object.keys(s.on ?? {})));
  for (const s of Object.values(machine.states)) if (s.deadline) events.delete(s.deadline.event);
  for (const event of [...events].sort()) {
    if (!granted.has(`${event} ${manifest.subject}`)) report(file, '/workflow', `no role in schemas/_access/access.json may send ${event} (permission "${event} ${manifest.subject}")`);
  }
}

function checkMachine(
  file: string,
  machine: MachineDefinition,
  impl: { guards: Set<string>; actions: Set<string>; delays: Set<string>; checks: Set<string> },
  report: Report,
  useKey: UseKey,
): void {
  const states = machine.states as Record<string, NonNullable<MachineDefinition['states'][string]>>;
  if (!states[machine.initial]) report(file, '/initial', `state "${machine.initial}" does not exist`);
  const name = (n: unknown): string => (typeof n === 'string' ? n : String((n as { type: string }).type));
  for (const [stateName, state] of Object.entries(states)) {
    const base = `/states/${escape(stateName)}`;
    useKey(file, `${base}/meta/titleKey`, (state.meta as { titleKey?: string } | undefined)?.titleKey);
    const checkTransitions = (group: 'on' | 'after', key: string, value: unknown): void => {
      const list = Array.isArray(value) ? value : [value];
      list.forEach((t: Transition, i) => {
        const at = `${base}/${group}/${escape(key)}${Array.isArray(value) ? `/${i}` : ''}`;
        if (t.target && !states[t.target]) report(file, `${at}/target`, `state "${t.target}" does not exist`);
        if (t.guard && !impl.guards.has(name(t.guard))) report(file, `${at}/guard`, `guard "${name(t.guard)}" is not in the implementation registry`);
        t.actions?.forEach((a, j) => {
          if (!impl.actions.has(name(a))) report(file, `${at}/actions/${j}`, `action "${name(a)}" is not in the implementation registry`);
        });
        t.checks?.forEach((c, j) => {
          const where = `${at}/checks/${j}`;
          if (!impl.checks.has(name(c))) return report(file, where, `check "${name(c)}" is not in the implementation registry`);
          const params = (typeof c === 'string' ? {} : (c.params ?? {})) as Record<string, unknown>;
          // The checked value is a date of the event's own input; the record's side is checked per follower.
          const field = typeof params.field === 'string' ? (t.payload?.properties as Record<string, JSONSchema7> | undefined)?.[params.field.replace(/^\//, '')] : undefined;
          if (!field || !['date', 'date-time'].includes(String(field.format))) report(file, `${where}/params/field`, `check "${name(c)}" needs params.field: a date or date-time field of the transition's payload`);
          if ('than' in params && (typeof params.than !== 'string' || !params.than.startsWith('/'))) report(file, `${where}/params/than`, 'params.than must be a JSON pointer into the record');
          useKey(file, `${where}/params/message`, params.message);
        });
      });
    };
    for (const [event, value] of Object.entries(state.on ?? {})) checkTransitions('on', event, value);
    if (state.deadline && !state.on?.[state.deadline.event]) report(file, `${base}/deadline/event`, `the state has no event "${state.deadline.event}" for its deadline`);
    // The sweep sends the event with no payload: one that requires input could never pass.
    const deadlineTransitions = state.deadline ? state.on?.[state.deadline.event] : undefined;
    if (deadlineTransitions && (Array.isArray(deadlineTransitions) ? deadlineTransitions : [deadlineTransitions]).some((t) => t.payload?.required?.length)) {
      report(file, `${base}/deadline/event`, `"${state.deadline!.event}" requires a payload, but the sweep sends none`);
    }
    // A stored record runs no timers: an XState `after` would never fire between requests.
    if (state.after && Object.keys(state.after).length) report(file, `${base}/after`, 'records keep no timers: declare a `deadline` (the record field holding the due date and the event the sweep sends) instead of `after`');
    for (const [delay, value] of Object.entries(state.after ?? {})) {
      if (!/^\d+$/.test(delay) && !impl.delays.has(delay)) report(file, `${base}/after/${escape(delay)}`, `delay "${delay}" is not in the implementation registry`);
      checkTransitions('after', delay, value);
    }
    for (const group of ['entry', 'exit'] as const) {
      state[group]?.forEach((a, j) => {
        if (!impl.actions.has(name(a))) report(file, `${base}/${group}/${j}`, `action "${name(a)}" is not in the implementation registry`);
      });
    }
  }
  void pointerSegments;
}
