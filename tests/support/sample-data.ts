/**
 * Generates records that satisfy an entity's schema, deterministically from a seed: the
 * contract tests derive every payload from the definitions, so a new entity is covered the
 * moment it exists. Values are checked with the server's ajv (rejection sampling), and
 * reference fields get real ids from the reference lists (a district inside its region).
 */
import type { JSONSchema7 } from 'json-schema';
import type Ajv from 'ajv';
import RandExp from 'randexp';
import { deref } from '../../src/shared/field-schema.ts';
import type { ReferenceList } from '../../src/generated/meta.ts';
import access from '../../schemas/_access/access.json' with { type: 'json' };
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateChecklist, type Checklist } from '../../src/server/capabilities/checklist/evaluate.ts';

const SCHEMAS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas');

const USER_ENTITY = access.userEntity;
/**
 * Entities whose record 1 exists from the first start on: those with a seed that always runs
 * (not `samples`). An optional link to another entity (a pharmacy appeal's registry pharmacy) is
 * left empty, as a fresh database has nothing to link to.
 */
const MANIFESTS = readdirSync(SCHEMAS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(SCHEMAS_DIR, d.name, 'entity.json')))
  .map(
    (d) =>
      JSON.parse(readFileSync(path.join(SCHEMAS_DIR, d.name, 'entity.json'), 'utf8')) as {
        id: string;
        titleKey: string;
        seed?: { samples?: boolean };
        checklist?: Checklist;
        autoReports?: unknown;
      },
  );
const FIRST_RECORD_THERE = new Set(MANIFESTS.filter((m) => m.seed && !m.seed.samples).map((m) => m.id));
/**
 * Checklists by the record schema's title (`entity.<id>.title`): a sample must also pass the
 * server's checklist rules (no check marked conform while its measurement breaks a rule), which
 * JSON Schema cannot say.
 */
const CHECKLISTS = new Map(MANIFESTS.flatMap((m) => (m.checklist ? [[m.titleKey, m.checklist] as const] : [])));
/** Automatic reports (`autoReports`) by schema title: their period must not end before it starts (the server refuses it). */
const PERIODS_IN_ORDER = new Set(MANIFESTS.filter((m) => m.autoReports).map((m) => m.titleKey));

/**
 * Values the server always copies into a new record from the record it links to (a manifest's
 * `prefill` rule with `always`): by entity id, the copy targets with the values of the source's
 * record 1 (its first seeded record, which the sampler links to). A sample carries them, so that
 * what it sends is what is stored, and the schema's conditions on them (an entry's product
 * variant per its outlet's kind) hold.
 */
const ALWAYS_COPIED = new Map(
  readdirSync(SCHEMAS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(SCHEMAS_DIR, d.name, 'entity.json')))
    .flatMap((d) => {
      const manifest = JSON.parse(readFileSync(path.join(SCHEMAS_DIR, d.name, 'entity.json'), 'utf8')) as {
        id: string;
        prefill?: Array<{ from: string; always?: boolean; copy: Record<string, string> }>;
      };
      const values: Record<string, unknown> = {};
      for (const rule of manifest.prefill ?? []) {
        const seedFile = path.join(SCHEMAS_DIR, rule.from, 'seed.json');
        if (!rule.always || !FIRST_RECORD_THERE.has(rule.from) || !existsSync(seedFile)) continue;
        const first = (JSON.parse(readFileSync(seedFile, 'utf8')) as { records: Array<Record<string, unknown>> })
          .records[0]!;
        for (const [target, from] of Object.entries(rule.copy)) values[target.slice(1)] = first[from.slice(1)];
      }
      return Object.keys(values).length ? [[manifest.id, values] as const] : [];
    }),
);

export type Rng = () => number;

/** mulberry32: small, fast, good enough for test data. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const digits = (rng: Rng, n: number): string => Array.from({ length: n }, () => String(int(rng, 0, 9))).join('');
const letters = (rng: Rng, n: number): string =>
  Array.from({ length: n }, () => String.fromCharCode(97 + int(rng, 0, 25))).join('');

function formatted(rng: Rng, format: string | undefined, maxLength: number): string | undefined {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = () => `${int(rng, 2015, 2026)}-${pad(int(rng, 1, 12))}-${pad(int(rng, 1, 28))}`;
  switch (format) {
    case 'date':
      return date();
    // Whole minutes: the date-time widget, like a person, enters no seconds.
    case 'date-time':
      return `${date()}T${pad(int(rng, 0, 23))}:${pad(int(rng, 0, 59))}:00.000Z`;
    case 'email':
      return `${letters(rng, 6)}@${letters(rng, 5)}.uz`;
    case 'uuid':
      return crypto.randomUUID();
    case 'phoneNumber':
      return `+99890-${digits(rng, 3)}-${digits(rng, 2)}-${digits(rng, 2)}`;
    case 'phoneOrEmail':
      return rng() < 0.5
        ? `+99891-${digits(rng, 3)}-${digits(rng, 2)}-${digits(rng, 2)}`
        : `${letters(rng, 5)}@mail.uz`;
    case 'stir':
      return `${int(rng, 2, 7)}${digits(rng, 8)}`;
    case 'pinfl':
      return `${int(rng, 3, 6)}${digits(rng, 13)}`;
    case 'mxik':
      return digits(rng, 17);
    case 'postIndex':
      return digits(rng, 6);
    case 'caseNumber':
      return `${int(rng, 1, 99)}-${pad(int(rng, 1, 12))}/${int(rng, 1, 999)}`;
    case 'integer':
      return String(int(rng, 0, 100000));
    case 'double':
      return `${int(rng, 0, 9999)}.${digits(rng, 2)}`;
    case 'uri':
      return `https://${letters(rng, 8)}.uz/${letters(rng, 4)}`;
    case 'time':
      return `${pad(int(rng, 0, 23))}:${pad(int(rng, 0, 59))}:00`;
    default:
      return format ? undefined : letters(rng, Math.max(1, Math.min(maxLength, int(rng, 3, 12))));
  }
}

/** A string matching `pattern`, drawn with the seeded generator. */
function fromPattern(rng: Rng, pattern: string): string {
  const gen = new RandExp(pattern);
  gen.max = 6;
  // Negated classes draw from printable ASCII (32–126) without the space.
  gen.defaultRange.subtract(32, 32);
  gen.randInt = (a: number, b: number) => int(rng, a, b);
  return gen.gen();
}

type Annotated = JSONSchema7 & {
  reference?: { list: string; parentField?: string };
  file?: boolean;
  positive?: boolean;
  positiveNotZero?: boolean;
  entityRef?: { entity: string };
  staffUser?: boolean;
};

export interface SampleOptions {
  /** Fill every optional property (true) or only required ones plus some (false). */
  full: boolean;
  /** Only what the schema requires: no optional property, arrays at their minimum length. */
  minimal?: boolean;
}

/**
 * The rules the server checks beyond an entity's schema (a checklist's, a report period's
 * order), as a test that a schema-valid record also passes them.
 */
export function serverRulesOf(root: JSONSchema7): (record: unknown) => boolean {
  const checklist = typeof root.title === 'string' ? CHECKLISTS.get(root.title) : undefined;
  const ordered = typeof root.title === 'string' && PERIODS_IN_ORDER.has(root.title);
  return (record) =>
    (!checklist || evaluateChecklist(checklist, record).problems.length === 0) &&
    (!ordered ||
      !(String((record as Record<string, unknown>).periodFrom) > String((record as Record<string, unknown>).periodTo)));
}

/** Creates a sampler bound to one entity schema and the reference lists. */
export function createSampler(root: JSONSchema7, references: Map<string, ReferenceList>, ajv: Ajv) {
  const validate = ajv.compile(root);
  const fits = serverRulesOf(root);

  const value = (
    rng: Rng,
    node: JSONSchema7 | undefined,
    opts: SampleOptions,
    holder: Record<string, unknown>,
  ): unknown => {
    const s = deref(root, node) as Annotated | undefined;
    if (!s) return null;
    if (s.reference) {
      const items = references.get(s.reference.list)?.items ?? [];
      const parent = s.reference.parentField ? holder[s.reference.parentField] : undefined;
      const candidates = parent === undefined ? items : items.filter((i) => i.parent === parent);
      return candidates.length ? pick(rng, candidates).id : undefined;
    }
    if (s.file) return s.type === 'array' ? [] : undefined;
    // A link to another record: record 1, which exists from the first start on (the first
    // seeded record — the central office — or the admin user).
    if (s.entityRef) return 1;
    // A staff user: user 1, the admin, is one (staff, may sign in) from the first start on.
    if (s.staffUser) return 1;
    if (s.const !== undefined) return s.const;
    if (s.enum) return pick(rng, s.enum);
    if (s.oneOf && s.oneOf.every((o) => typeof o === 'object' && o.const !== undefined)) {
      return (pick(rng, s.oneOf) as JSONSchema7).const;
    }
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
    switch (type) {
      case 'object': {
        const out: Record<string, unknown> = {};
        const required = new Set(s.required ?? []);
        // A block whose fields a conditional branch requires (if/then/else, in allOf too): when the
        // block is drawn, those fields are drawn with it; the retries pick a valid branch.
        const branchRequired = new Map<string, string[]>();
        for (const part of [s, ...((s.allOf ?? []) as JSONSchema7[])])
          for (const branch of [part.then, part.else])
            for (const [name, sub] of Object.entries((branch as JSONSchema7 | undefined)?.properties ?? {}))
              if (typeof sub === 'object' && sub.required)
                branchRequired.set(name, [...(branchRequired.get(name) ?? []), ...sub.required]);
        // Parents first, so that a district can follow its region.
        const props = Object.entries(s.properties ?? {}).sort(
          ([, a], [, b]) =>
            Number(Boolean((a as Annotated).reference?.parentField)) -
            Number(Boolean((b as Annotated).reference?.parentField)),
        );
        for (const [name, child] of props) {
          if (!required.has(name) && (opts.minimal || (!opts.full && rng() < 0.5))) continue;
          // An optional link to a user account is left empty: record 1 is the admin, and a staff
          // card with canLogin = false linked to it would lock the tests' admin out.
          if (!required.has(name) && (child as Annotated).entityRef?.entity === USER_ENTITY) continue;
          const linked = (child as Annotated).entityRef?.entity;
          if (!required.has(name) && linked && !FIRST_RECORD_THERE.has(linked)) continue;
          // A field the server writes (readOnly) is not the client's to send.
          if ((child as JSONSchema7).readOnly === true) continue;
          const extra = branchRequired.get(name);
          const drawn = extra
            ? { ...(child as JSONSchema7), required: [...((child as JSONSchema7).required ?? []), ...extra] }
            : (child as JSONSchema7);
          const v = value(rng, drawn, opts, out);
          if (v !== undefined) out[name] = v;
        }
        return out;
      }
      case 'array': {
        const min = s.minItems ?? 0;
        const max = Math.min(s.maxItems ?? 3, min + 3);
        const n = opts.minimal ? min : opts.full ? Math.max(min, 1) : int(rng, min, Math.max(min, max));
        const items = Array.from({ length: Math.min(n, max) }, () => value(rng, s.items as JSONSchema7, opts, {}));
        return s.uniqueItems ? [...new Map(items.map((i) => [JSON.stringify(i), i])).values()] : items;
      }
      case 'string': {
        const max = s.maxLength ?? 40;
        const min = s.minLength ?? 0;
        let v = s.pattern
          ? fromPattern(rng, s.pattern)
          : (formatted(rng, s.format, max) ?? letters(rng, Math.max(min, 1)));
        if (v.length < min) v = v + letters(rng, min - v.length);
        return v.slice(0, max);
      }
      case 'integer': {
        const min = Math.max(
          s.minimum ?? 0,
          s.positiveNotZero ? 1 : 0,
          typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : -Infinity,
        );
        const max = Math.min(
          s.maximum ?? 100000,
          typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : Infinity,
        );
        return int(rng, min, Math.max(min, max));
      }
      case 'number': {
        const min = Math.max(s.minimum ?? 0, s.positiveNotZero ? 1 : 0);
        const max = Math.min(
          s.maximum ?? 1_000_000_000,
          typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : Infinity,
        );
        return Math.round((min + rng() * (Math.max(min, max) - min)) * 100) / 100;
      }
      case 'boolean':
        return rng() < 0.5;
      case 'null':
        return null;
      default:
        return undefined;
    }
  };

  /** A schema-valid record; throws when 200 attempts found none (a schema the sampler cannot satisfy). */
  // The entity is named by its schema's title key (`entity.<id>.title`, as every entity's is).
  const forced = ALWAYS_COPIED.get(/^entity\.(.+)\.title$/.exec(root.title ?? '')?.[1] ?? '');
  // The top-level `if`/`then` branches: a branch whose condition holds may forbid fields (`false`).
  const branches = (root.allOf ?? []).flatMap((b) => {
    const s = b as JSONSchema7;
    return s.if && typeof s.then === 'object' ? [{ holds: ajv.compile(s.if as object), then: s.then }] : [];
  });
  /** Drops the fields a branch that holds forbids (an optional field drawn for another kind). */
  const withoutForbidden = (candidate: Record<string, unknown>): void => {
    for (const b of branches)
      if (b.holds(candidate))
        for (const [name, child] of Object.entries(b.then.properties ?? {}))
          if (child === false) delete candidate[name];
  };
  return function sample(seed: number, opts: SampleOptions): Record<string, unknown> {
    const rng = createRng(seed);
    for (let attempt = 0; attempt < 200; attempt++) {
      // A minimal record may be impossible (a condition requires an optional field): after
      // half the attempts, optional fields may be drawn too.
      const candidate = value(rng, root, opts.minimal && attempt >= 100 ? { full: false } : opts, {}) as Record<
        string,
        unknown
      >;
      if (forced) withoutForbidden(Object.assign(candidate, forced));
      let valid = validate(candidate) && fits(candidate);
      // A condition may forbid an array's rows (`maxItems: 0` in an if/then, say the rows of
      // another report kind): those arrays are emptied and the record is tried again.
      const forbidden = valid
        ? []
        : (validate.errors ?? []).filter((e) => e.keyword === 'maxItems' && e.params.limit === 0);
      if (forbidden.length) {
        for (const e of forbidden) {
          const path = e.instancePath.split('/').slice(1);
          let at: Record<string, unknown> = candidate;
          for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
          at[path[path.length - 1]!] = [];
        }
        valid = validate(candidate) && fits(candidate);
      }
      if (!valid) continue;
      // A copied field the server writes (readOnly) is not the client's to send: it only chose the branch.
      for (const name of Object.keys(forced ?? {}))
        if ((root.properties?.[name] as JSONSchema7 | undefined)?.readOnly === true) delete candidate[name];
      return candidate;
    }
    throw new Error(`no valid sample after 200 attempts: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  };
}
