// Throwaway verification of the entity definitions (delete after use).
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fs from 'node:fs';
import path from 'node:path';
import { addPortalVocabulary } from './src/shared/validation/vocabulary.ts';

const ROOT = process.cwd();
const IDS = ['appeal', 'contractor', 'pharmacy-appeal', 'pharmacy-wholesale-appeal', 'tender', 'compliance-case', 'advertising-passport'];
const SYSTEM = new Set(['/id', '/status', '/version', '/owner', '/createdAt', '/updatedAt']);
const WIDGETS = new Set(['text', 'textarea', 'number', 'money', 'select', 'radio', 'checkbox', 'phone', 'stir', 'pinfl', 'date', 'reference', 'file', 'mapPoint', 'hidden']);
const REF_KINDS = new Set(fs.readdirSync(path.join(ROOT, 'schemas/_reference')).map((f) => f.replace(/\.json$/, '')));
const read = (p: string) => JSON.parse(fs.readFileSync(p, 'utf8'));
const errors: string[] = [];
const err = (m: string) => errors.push(m);

// meta validation
const meta = addFormats(new Ajv({ allErrors: true, strict: false }));
for (const f of fs.readdirSync(path.join(ROOT, 'schemas/_meta'))) meta.addSchema(read(path.join(ROOT, 'schemas/_meta', f)));
const metaCheck = (metaId: string, file: string) => {
  const v = meta.getSchema(metaId)!;
  if (!v(read(file))) err(`${file}: ${metaId}: ${meta.errorsText(v.errors)}`);
};

const locales = Object.fromEntries(['uz', 'uzCyrillic', 'ru', 'en'].map((l) => [l, read(path.join(ROOT, 'src/i18n/locales', `${l}.json`))]));
const usedKeys = new Set<string>();
const checkKey = (key: unknown, where: string) => {
  if (typeof key !== 'string') return err(`${where}: i18n key is not a string`);
  usedKeys.add(key);
  for (const [l, tree] of Object.entries(locales)) {
    const v = key.split('.').reduce((o: any, p) => (o && typeof o === 'object' ? o[p] : undefined), tree);
    if (typeof v !== 'string' || !v.trim()) err(`${where}: key ${key} missing/not a string in ${l}`);
  }
};

const resolve = (schema: any, ptr: string): { node: any; inArray: boolean } | null => {
  let s = schema;
  let inArray = false;
  for (const part of ptr.split('/').slice(1)) {
    if (s.type === 'array') { s = s.items; inArray = true; }
    s = s?.properties?.[part];
    if (!s) return null;
  }
  return { node: s, inArray };
};
const isScalar = (n: any) => ['string', 'number', 'integer', 'boolean'].includes(n.type);

for (const id of IDS) {
  const dir = path.join(ROOT, 'schemas', id);
  const files = { entity: path.join(dir, 'entity.json'), schema: path.join(dir, 'schema.json'), ui: path.join(dir, 'ui.json'), grid: path.join(dir, 'grid.json') };
  metaCheck('entity.schema.json', files.entity);
  metaCheck('record.schema.json', files.schema);
  metaCheck('ui.schema.json', files.ui);
  metaCheck('grid.schema.json', files.grid);
  const entity = read(files.entity), schema = read(files.schema), ui = read(files.ui), grid = read(files.grid);
  if (entity.id !== id) err(`${id}: entity.id mismatch`);
  if (entity.titleKey !== `entity.${id}.title` || schema.title !== entity.titleKey) err(`${id}: title key`);
  checkKey(entity.titleKey, `${id}/entity.titleKey`);
  if (entity.workflow && !fs.existsSync(path.join(ROOT, 'workflows', `${entity.workflow}.machine.json`))) err(`${id}: workflow file missing`);

  // strict compile
  const ajv = addPortalVocabulary(addFormats(new Ajv({ allErrors: true, strict: true })));
  let validate: any;
  try { validate = ajv.compile(schema); } catch (e) { err(`${id}: strict compile: ${(e as Error).message}`); continue; }

  // schema conventions walk
  const walk = (node: any, at: string, keyPrefix: string | null, name: string | null) => {
    if (node.$ref && !String(node.$ref).startsWith('#')) err(`${at}: external $ref`);
    for (const kw of ['patternProperties', 'dependencies']) if (kw in node) err(`${at}: uses ${kw}`);
    if (node.type === 'string' && node.maxLength === undefined) err(`${at}: string without maxLength`);
    if (node.oneOf) {
      for (const o of node.oneOf) {
        if (o.const === undefined) err(`${at}: oneOf entry without const`);
        checkKey(o.title, `${at} option`);
        if (o.title !== `entity.${id}.option.${name}.${o.const}`) err(`${at}: option key ${o.title}`);
      }
    }
    if (node.reference) {
      if (!REF_KINDS.has(node.reference.list)) err(`${at}: unknown reference list ${node.reference.list}`);
      if (node.type !== 'integer') err(`${at}: reference not integer`);
    }
    if (node.file) {
      if (node.type !== 'array' || node.items?.format !== 'uuid' || node.maxItems !== 5) err(`${at}: file field shape`);
    }
    if (node.type === 'object') {
      if (node.additionalProperties !== false) err(`${at}: object without additionalProperties:false`);
      for (const [k, p] of Object.entries<any>(node.properties ?? {})) {
        const expect = keyPrefix === null ? `entity.${id}.field.${k}` : `entity.${id}.${keyPrefix}.${k}`;
        if (p.title !== expect) err(`${at}/${k}: title ${p.title} != ${expect}`);
        checkKey(p.title, `${at}/${k}`);
        if (p.reference?.parentField && !(p.reference.parentField in node.properties)) err(`${at}/${k}: parentField not a sibling`);
        walk(p, `${at}/${k}`, k, k);
      }
      for (const c of ['if', 'then', 'else']) for (const [k, p] of Object.entries<any>(node[c]?.properties ?? {})) {
        if (!(k in node.properties)) err(`${at}: ${c} names unknown ${k}`);
        else if (p.title !== node.properties[k].title) err(`${at}: ${c}.${k} title differs`);
      }
      for (const r of node.required ?? []) if (!(r in (node.properties ?? {}))) err(`${at}: required ${r} undeclared`);
    }
    if (node.type === 'array') {
      if (!node.items) err(`${at}: array without items`);
      else walk(node.items, `${at}[]`, name, name);
      if (!Array.isArray(node.default)) err(`${at}: array without default []`);
    }
  };
  walk(schema, id, null, null);
  for (const sys of SYSTEM) if (sys.slice(1) in schema.properties) err(`${id}: declares system field ${sys}`);

  // pointers in manifest
  const ptrCheck = (ptr: string, where: string, opts: { scalar?: boolean; noArray?: boolean; allowSystem?: boolean; string?: boolean } = {}) => {
    if (opts.allowSystem && SYSTEM.has(ptr)) return;
    const r = resolve(schema, ptr);
    if (!r) return err(`${id} ${where}: pointer ${ptr} does not resolve`);
    if (opts.scalar && !isScalar(r.node)) err(`${id} ${where}: ${ptr} not scalar`);
    if (opts.noArray && r.inArray) err(`${id} ${where}: ${ptr} inside an array`);
    if (opts.string && r.node.type !== 'string') err(`${id} ${where}: ${ptr} not a string`);
    return r;
  };
  ptrCheck(entity.labelField, 'labelField', { scalar: true, noArray: true });
  for (const k of entity.keywordFields ?? []) ptrCheck(k, 'keywordFields', { string: true, noArray: true });
  if (entity.scope?.regionField) {
    const r = ptrCheck(entity.scope.regionField, 'scope.regionField', { scalar: true, noArray: true });
    if (r && r.node.reference?.list !== 'region') err(`${id}: regionField not a region reference`);
  }

  // grid
  for (const c of grid.columns) {
    ptrCheck(c.field, `column ${c.field}`, { scalar: true, noArray: true, allowSystem: true });
    checkKey(c.titleKey, `${id} column ${c.field}`);
    if (c.format === 'reference') {
      const r = resolve(schema, c.field);
      if (!REF_KINDS.has(c.reference) || r?.node.reference?.list !== c.reference) err(`${id} column ${c.field}: reference mismatch`);
    }
    if (c.format === 'money' && !resolve(schema, c.field)?.node.positive) err(`${id} column ${c.field}: money column not money`);
  }
  for (const need of ['/id', '/status', '/createdAt']) if (!grid.columns.some((c: any) => c.field === need)) err(`${id}: grid lacks ${need}`);
  for (const s of grid.defaultSort) ptrCheck(s.field, 'defaultSort', { scalar: true, noArray: true, allowSystem: true });
  const filterNames = new Set<string>();
  for (const f of grid.filters) {
    if (filterNames.has(f.name)) err(`${id}: duplicate filter ${f.name}`);
    filterNames.add(f.name);
    if (f.titleKey) checkKey(f.titleKey, `${id} filter ${f.name}`); else err(`${id} filter ${f.name}: no titleKey`);
    if (f.kind === 'keyword') continue;
    const r = ptrCheck(f.field, `filter ${f.name}`, { scalar: true, noArray: true, allowSystem: true });
    if (f.reference) {
      if (!REF_KINDS.has(f.reference)) err(`${id} filter ${f.name}: unknown reference`);
      if (r && r.node.reference?.list !== f.reference) err(`${id} filter ${f.name}: reference mismatch`);
    }
    if (f.parentFilter && !grid.filters.some((g: any) => g.name === f.parentFilter)) err(`${id} filter ${f.name}: parentFilter missing`);
    if (r && f.kind === 'dateRange' && !['date', 'date-time'].includes(r.node.format)) err(`${id} filter ${f.name}: dateRange on non-date`);
    if (r && f.kind === 'bool' && r.node.type !== 'boolean') err(`${id} filter ${f.name}: bool on non-boolean`);
    if (r && f.kind === 'range' && !['number', 'integer'].includes(r.node.type)) err(`${id} filter ${f.name}: range on non-number`);
  }

  // ui
  const walkUi = (u: any, s: any, at: string) => {
    for (const [k, v] of Object.entries<any>(u)) {
      if (k.startsWith('ui:')) {
        if (['ui:title', 'ui:help', 'ui:placeholder', 'ui:description'].includes(k)) checkKey(v, `${at} ${k}`);
        if (k === 'ui:widget' && !WIDGETS.has(v)) err(`${at}: unknown widget ${v}`);
        if (k === 'ui:order') {
          const props = Object.keys(s.properties ?? {});
          for (const p of props) if (!v.includes(p) && !v.includes('*')) err(`${at}: ui:order misses ${p}`);
          for (const p of v) if (p !== '*' && !props.includes(p)) err(`${at}: ui:order names unknown ${p}`);
        }
        continue;
      }
      if (s.type === 'array' && k === 'items') { walkUi(v, s.items, `${at}/items`); continue; }
      const child = s.properties?.[k];
      if (!child) { err(`${at}: ui key ${k} is not a schema property`); continue; }
      walkUi(v, child, `${at}/${k}`);
    }
  };
  walkUi(ui.uiSchema, schema, `${id}/ui`);
  if (ui.wizard) {
    const seen: string[] = [];
    for (const st of ui.wizard.steps) {
      checkKey(st.titleKey, `${id} step ${st.id}`);
      if (st.titleKey !== `entity.${id}.step.${st.id}`) err(`${id} step ${st.id}: key`);
      for (const f of st.fields) {
        if (f.split('/').length !== 2 || !(f.slice(1) in schema.properties)) err(`${id} step ${st.id}: ${f} not a top-level field`);
        seen.push(f);
      }
    }
    const all = Object.keys(schema.properties).map((p) => `/${p}`);
    for (const p of all) if (seen.filter((x) => x === p).length !== 1) err(`${id}: wizard lists ${p} ${seen.filter((x) => x === p).length} times`);
  }

  // samples
  const samples = read(`/tmp/gen/samples/${id}.json`);
  if (!validate(samples.valid)) err(`${id}: valid sample rejected: ${ajv.errorsText(validate.errors)}`);
  if (validate(samples.invalid)) err(`${id}: invalid sample accepted`);
  else console.log(`${id}: invalid sample rejected as expected: ${ajv.errorsText(validate.errors)}`);
  // reference values in the sample exist and district belongs to region
  const refs: Record<string, any[]> = {};
  const refItems = (k: string) => (refs[k] ??= read(path.join(ROOT, 'schemas/_reference', `${k}.json`)).items);
  const walkData = (d: any, s: any, at: string) => {
    if (d === undefined || d === null) return;
    if (s.type === 'object') for (const [k, v] of Object.entries(d)) {
      const ps = s.properties[k];
      if (ps.reference) {
        const it = refItems(ps.reference.list).find((x: any) => x.id === v);
        if (!it) err(`${id} sample ${at}/${k}: ${v} not in ${ps.reference.list}`);
        if (ps.reference.parentField && it && it.parent !== d[ps.reference.parentField]) err(`${id} sample ${at}/${k}: parent mismatch`);
      }
      walkData(v, ps, `${at}/${k}`);
    }
    if (s.type === 'array') (d as any[]).forEach((x, i) => walkData(x, s.items, `${at}/${i}`));
  };
  walkData(samples.valid, schema, '');
  // the blank form (defaults only) must at least compile defaults that are themselves valid
  const ajvDef = addPortalVocabulary(addFormats(new Ajv({ allErrors: true, strict: true, useDefaults: true })));
  const vd = ajvDef.compile(schema);
  const blank: any = {};
  vd(blank);
  console.log(`${id}: blank-form defaults →`, JSON.stringify(blank));
}

// orphan keys of our entities
const flat = (o: any, p = ''): string[] => Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [p + k] : flat(v, p + k + '.')));
for (const [l, tree] of Object.entries(locales)) {
  for (const id of IDS) {
    const sub = tree.entity?.[id];
    if (!sub) { err(`${l}: no entity.${id}`); continue; }
    for (const k of flat(sub, `entity.${id}.`)) if (!usedKeys.has(k)) err(`${l}: unused key ${k}`);
  }
  const n = flat(tree).length;
  console.log(`${l}: ${n} keys`);
}
const keysets = Object.values(locales).map((t) => flat(t).sort().join('\n'));
if (new Set(keysets).size !== 1) err('locale files do not have identical key sets');

console.log(errors.length ? `\n${errors.length} problem(s):\n- ${errors.join('\n- ')}` : '\nALL CHECKS PASSED');
process.exit(errors.length ? 1 : 0);
