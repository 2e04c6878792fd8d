/**
 * `npm run new:entity -- <id> --like <entity>`: a copy of an existing entity under a new id —
 * its manifest, schema, form, grid, edit rules and views, its screens, its machine (as a machine
 * of its own, `workflows/<id>.machine.json`), its texts in the four languages and its roles'
 * permissions — with the ids, i18n keys, subject, API base and routes renamed. Left out on
 * purpose: its seed records (samples of another registry), its migrations (a new entity starts at
 * version 1), its open datasets and counters (each names one registry).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AccessDefinition } from '../../src/generated/meta.ts';
import { LOCALES } from '../../src/shared/locales.ts';
import { englishOnly, readTranslations, type FlatTexts, type Texts } from './translations.ts';
import { nextMenuOrder, plural, type Grant, type Plan, type PlanInput } from './plan.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The renamings of one copy: exact strings, key prefixes and the subject. */
interface Renames {
  exact: Map<string, string>;
  prefixes: Array<[string, string]>;
  fromSubject: string;
  toSubject: string;
  like: string;
  id: string;
}

/** A string of a copied file, renamed: a route or screen id, an i18n key, a permission, a self-reference. */
function renameString(value: string, key: string | undefined, r: Renames): string {
  const exact = r.exact.get(value);
  if (exact !== undefined) return exact;
  for (const [from, to] of r.prefixes) if (value.startsWith(from)) return to + value.slice(from.length);
  const permission = /^(\S+) (\S+)$/.exec(value);
  if (permission && permission[2] === r.fromSubject) return `${permission[1]} ${r.toSubject}`;
  if (key === 'entity' && value === r.like) return r.id;
  return value;
}

/** A copied JSON value with every string renamed. */
function renameDeep(value: Json, r: Renames, key?: string): Json {
  if (typeof value === 'string') return renameString(value, key, r);
  if (Array.isArray(value)) return value.map((v) => renameDeep(v, r, key));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameDeep(v, r, k)]));
  return value;
}

/**
 * A route of the copied entity under the new id: each segment naming the old entity (its id,
 * its plural, its admin word) becomes the new plural; a route with none gets `-<id>` added to
 * its first segment.
 * @example renameRoute('/admin/vacancies/:id', new Set(['vacancy', 'vacancies']), 'sugar-outlet') // '/admin/sugar-outlets/:id'
 */
export function renameRoute(route: string, words: ReadonlySet<string>, id: string): string {
  const segments = route.split('/');
  const renamed = segments.map((s) => (words.has(s) ? plural(id) : s));
  if (renamed.join('/') !== route) return renamed.join('/');
  const at = segments.length > 2 && !segments[2]!.startsWith(':') ? 2 : 1;
  renamed[at] = renamed[at] ? `${renamed[at]}-${id}` : id;
  return renamed.join('/');
}

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;

/** The new entity as a copy of `input.like`. */
export function likeEntity(input: PlanInput): Plan {
  const { id, subject, title, root, registry, like } = input;
  const source = registry.entities.get(like!)!;
  const manifest = source.manifest;
  const machine = manifest.workflow;
  const screens = [...registry.screens.values()].filter((s) => s.entity === like);

  const screenIds = new Map(
    screens.map((s) => [s.id, s.id.startsWith(`${like}-`) ? `${id}-${s.id.slice(like!.length + 1)}` : `${id}-${s.id}`]),
  );
  const words = new Set([like!, plural(like!)]);
  for (const s of screens) {
    const m = /^\/admin\/([^/:]+)/.exec(s.route);
    if (m) words.add(m[1]!);
  }
  const routes = new Map(screens.map((s) => [s.route, renameRoute(s.route, words, id)]));
  const renames: Renames = {
    exact: new Map([...screenIds, ...routes]),
    prefixes: [
      [`entity.${like}.`, `entity.${id}.`],
      ...[...screenIds].map(([from, to]): [string, string] => [`screen.${from}.`, `screen.${to}.`]),
      ...(machine ? [[`workflow.${machine}.`, `workflow.${id}.`] as [string, string]] : []),
    ],
    fromSubject: manifest.subject,
    toSubject: subject,
    like: like!,
    id,
  };

  const files = new Map<string, unknown>();
  const skip = new Set(['i18n.json', ...(manifest.seed?.file ? [manifest.seed.file] : [])]);
  for (const entry of readdirSync(path.join(root, source.dir), { withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json') || skip.has(entry.name)) continue;
    const copy = renameDeep(readJson(path.join(root, source.dir, entry.name)), renames);
    files.set(`schemas/${id}/${entry.name}`, copy);
  }
  const copiedManifest = files.get(`schemas/${id}/entity.json`) as Record<string, Json>;
  const { seed: _seed, ...rest } = copiedManifest;
  const newManifest: Record<string, Json> = {
    ...rest,
    id,
    description: `REWRITE THIS DESCRIPTION (copied from the entity "${like}" by npm run new:entity): ${manifest.description}`,
    base: `/${id}`,
    titleKey: `entity.${id}.title`,
    subject,
    ...(machine ? { workflow: id } : {}),
  };
  // Paths that must be unique across entities get the new id.
  for (const [key, field] of [
    ['publicSubmit', 'path'],
    ['photo', 'route'],
  ] as const) {
    const part = newManifest[key];
    if (!isObject(part) || typeof part[field] !== 'string') continue;
    const old = part[field] as string;
    newManifest[key] = { ...part, [field]: old.includes(like!) ? old.split(like!).join(id) : `${old}-${id}` };
  }
  files.set(`schemas/${id}/entity.json`, newManifest);

  for (const screen of screens) {
    const copy = renameDeep(readJson(path.join(root, 'screens', `${screen.id}.json`)), renames) as Record<string, Json>;
    if (isObject(copy.menu) && typeof copy.menu.section === 'string')
      copy.menu = { ...copy.menu, order: nextMenuOrder(registry, copy.menu.section) };
    files.set(`screens/${screenIds.get(screen.id)}.json`, copy);
  }
  if (machine) {
    const copy = renameDeep(readJson(path.join(root, 'workflows', `${machine}.machine.json`)), renames) as Record<
      string,
      Json
    >;
    files.set(`workflows/${id}.machine.json`, { ...copy, id, version: 1 });
  }

  const texts = copiedTexts(root, renames, manifest.titleKey, title);
  const access = copiedAccess(input.access, manifest.subject, subject);
  return { files, texts, access: access.json, grants: access.grants, machine: machine ? id : undefined };
}

/**
 * The old entity's texts under the new keys; its title becomes `title` (English, the others
 * marked for translation), and so does the old title inside its screens' titles.
 */
function copiedTexts(root: string, r: Renames, oldTitleKey: string, title: string): FlatTexts {
  const oldTexts = readTranslations(
    root,
    r.prefixes.map(([from]) => from),
  );
  const oldTitle = readTranslations(root, [oldTitleKey]).get(oldTitleKey);
  const newTitle = englishOnly(title);
  const texts: FlatTexts = new Map();
  for (const [key, text] of oldTexts) {
    const newKey = renameString(key, undefined, r);
    const retitled = Object.fromEntries(
      LOCALES.map((l) => [
        l,
        oldTitle && key.startsWith('screen.') ? text[l].split(oldTitle[l]).join(newTitle[l]) : text[l],
      ]),
    ) as Texts;
    texts.set(newKey, retitled);
  }
  texts.set(`entity.${r.id}.title`, newTitle);
  return texts;
}

/** access.json with every permission and field rule on the old subject given on the new one too. */
function copiedAccess(
  access: AccessDefinition,
  fromSubject: string,
  toSubject: string,
): { json: AccessDefinition; grants: Grant[] } {
  const grants: Grant[] = [];
  const renamed = (permissions: string[]): string[] =>
    permissions.flatMap((p) => {
      const m = /^(\S+) (\S+)$/.exec(p);
      return m && m[2] === fromSubject ? [`${m[1]} ${toSubject}`] : [];
    });
  const fieldRules = <T extends { subject: string }>(rules: T[] | undefined): T[] | undefined =>
    rules && [...rules, ...rules.filter((x) => x.subject === fromSubject).map((x) => ({ ...x, subject: toSubject }))];
  const roles = access.roles.map((role) => {
    const added = renamed(role.permissions);
    if (!added.length) return role;
    grants.push({ role: role.code, permissions: added });
    const readOnlyFields = fieldRules(role.readOnlyFields);
    const hiddenFields = fieldRules(role.hiddenFields);
    return {
      ...role,
      permissions: [...role.permissions, ...added],
      ...(readOnlyFields ? { readOnlyFields } : {}),
      ...(hiddenFields ? { hiddenFields } : {}),
    };
  });
  const guestAdded = renamed(access.guest?.permissions ?? []);
  if (guestAdded.length) grants.push({ role: '(guest)', permissions: guestAdded });
  return {
    json: {
      ...access,
      roles,
      ...(access.guest
        ? { guest: { ...access.guest, permissions: [...access.guest.permissions, ...guestAdded] } }
        : {}),
    },
    grants,
  };
}
