/**
 * `npm run new:entity` (issue #16, item 1) without the disk: what it refuses, the files, texts
 * and permissions it plans for a new entity and for a copy, and the one function that writes
 * the texts in either layout. tests/scripts/new-entity.test.ts runs the script for real on a
 * copy of the repository, with the check and the generated tests.
 */
import { describe, expect, it, beforeAll, afterEach } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createDefinitionRegistry, type DefinitionRegistry } from '../../src/definitions/registry.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import type { AccessDefinition } from '../../src/generated/meta.ts';
import { freshEntity } from '../../scripts/scaffold/fresh.ts';
import { likeEntity } from '../../scripts/scaffold/like.ts';
import {
  plural,
  refusal,
  subjectOf,
  titleOf,
  type PlanInput,
  type ScaffoldOptions,
} from '../../scripts/scaffold/plan.ts';
import {
  englishOnly,
  translationLayout,
  UNTRANSLATED_MARK,
  writeTranslations,
} from '../../scripts/scaffold/translations.ts';

let registry: DefinitionRegistry;
let access: AccessDefinition;
beforeAll(async () => {
  registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
  access = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/_access/access.json'), 'utf8'));
});

const input = (id: string, extra: Partial<PlanInput> = {}): PlanInput => ({
  id,
  subject: subjectOf(id),
  title: titleOf(id),
  workflow: false,
  root: REPO_ROOT,
  registry,
  access,
  ...extra,
});
const refuse = (options: Partial<ScaffoldOptions> & { id: string }) =>
  refusal({ workflow: false, ...options }, REPO_ROOT, registry);

describe('new:entity refuses in plain words', () => {
  it.each(['Sugar_Outlet', 'sugar--outlet', '-sugar', '9sugar', 'sugar outlet', 'SugarOutlet'])(
    'a bad id: %s',
    (id) => {
      expect(refuse({ id })).toMatch(
        /is not a valid entity id: use lower-case words .* joined by hyphens \(kebab-case\)/,
      );
    },
  );
  it('an id that exists', () => {
    expect(refuse({ id: 'vacancy' })).toBe(
      'schemas/vacancy exists already: the entity "vacancy" is there; pick another id',
    );
  });
  it('an unknown --like, naming the close one', () => {
    expect(refuse({ id: 'sugar-kiosk', like: 'vacancyy' })).toMatch(
      /--like: entity "vacancyy" .*did you mean "vacancy"/,
    );
  });
  it('--workflow with --like', () => {
    expect(refuse({ id: 'sugar-kiosk', like: 'vacancy', workflow: true })).toMatch(/do not go together/);
  });
  it('accepts a good new id', () => {
    expect(refuse({ id: 'sugar-kiosk', workflow: true })).toBeUndefined();
  });
});

describe('names', () => {
  it('subject, plural and title of an id', () => {
    expect(subjectOf('sugar-outlet')).toBe('SugarOutlet');
    expect(plural('sugar-outlet')).toBe('sugar-outlets');
    expect(plural('vacancy')).toBe('vacancies');
    expect(plural('tax')).toBe('taxes');
    expect(titleOf('sugar-outlet')).toBe('Sugar outlets');
  });
});

describe('a new entity from nothing', () => {
  it('has the manifest, schema, form, grid, edit rules and four screens; a menu entry on the list', () => {
    const plan = freshEntity(input('sugar-kiosk'));
    expect([...plan.files.keys()].sort()).toEqual([
      'schemas/sugar-kiosk/edit.json',
      'schemas/sugar-kiosk/entity.json',
      'schemas/sugar-kiosk/grid.json',
      'schemas/sugar-kiosk/schema.json',
      'schemas/sugar-kiosk/ui.json',
      'screens/sugar-kiosk-detail.json',
      'screens/sugar-kiosk-edit.json',
      'screens/sugar-kiosk-list.json',
      'screens/sugar-kiosk-new.json',
    ]);
    const manifest = plan.files.get('schemas/sugar-kiosk/entity.json') as Record<string, unknown>;
    expect(manifest).toMatchObject({
      id: 'sugar-kiosk',
      base: '/sugar-kiosk',
      subject: 'SugarKiosk',
      initialStatus: 'ACTIVE',
    });
    expect(manifest.description).toMatch(/^REWRITE THIS DESCRIPTION/);
    expect(plan.files.get('screens/sugar-kiosk-list.json')).toMatchObject({
      route: '/admin/sugar-kiosks',
      permission: 'read SugarKiosk',
      menu: { section: 'menu.section.registries', icon: 'DocumentBulletList' },
    });
    expect(plan.machine).toBeUndefined();
  });

  it('writes English, and marks the three other languages for translation', () => {
    const plan = freshEntity(input('sugar-kiosk', { title: 'Sugar kiosks' }));
    expect(plan.texts.get('entity.sugar-kiosk.title')).toEqual({
      en: 'Sugar kiosks',
      ru: `${UNTRANSLATED_MARK}Sugar kiosks`,
      uz: `${UNTRANSLATED_MARK}Sugar kiosks`,
      uzCyrillic: `${UNTRANSLATED_MARK}Sugar kiosks`,
    });
    expect(
      [...plan.texts.keys()].every((k) => k.startsWith('entity.sugar-kiosk.') || k.startsWith('screen.sugar-kiosk-')),
    ).toBe(true);
  });

  it('with --workflow: a two-state machine wired into the manifest, its labels and its events granted', () => {
    const plan = freshEntity(input('sugar-kiosk', { workflow: true }));
    expect((plan.files.get('schemas/sugar-kiosk/entity.json') as Record<string, unknown>).workflow).toBe('sugar-kiosk');
    const machine = plan.files.get('workflows/sugar-kiosk.machine.json') as any;
    expect(machine).toMatchObject({ id: 'sugar-kiosk', version: 1, initial: 'ACTIVE' });
    expect(Object.keys(machine.states)).toEqual(['ACTIVE', 'ARCHIVED']);
    expect(plan.texts.has('workflow.sugar-kiosk.states.ARCHIVED')).toBe(true);
    expect(plan.texts.has('workflow.sugar-kiosk.events.RESTORE')).toBe(true);
    const head = plan.access.roles.find((r) => r.code === 'department-head')!;
    expect(head.permissions).toEqual(
      expect.arrayContaining(['ARCHIVE SugarKiosk', 'RESTORE SugarKiosk', 'delete SugarKiosk']),
    );
  });

  it('grants staff roles read, the writer roles everything, outer roles and guests nothing', () => {
    const plan = freshEntity(input('sugar-kiosk'));
    const of = (code: string) =>
      plan.access.roles.find((r) => r.code === code)!.permissions.filter((p) => p.endsWith(' SugarKiosk'));
    expect(of('employee')).toEqual(['read SugarKiosk', 'create SugarKiosk', 'update SugarKiosk', 'delete SugarKiosk']);
    expect(of('jurist')).toEqual(['read SugarKiosk']);
    for (const outer of ['citizen', 'business', 'pharmacy-owner', 'admin']) expect(of(outer)).toEqual([]);
    expect(plan.access.guest).toEqual(access.guest);
  });
});

describe('a copy (--like)', () => {
  it('renames ids, keys, subject, base and routes, and leaves out the seed', () => {
    const plan = likeEntity(input('job-opening', { like: 'vacancy', title: 'Job openings' }));
    expect(plan.files.has('schemas/job-opening/seed.json')).toBe(false);
    const manifest = plan.files.get('schemas/job-opening/entity.json') as Record<string, unknown>;
    expect(manifest).toMatchObject({
      id: 'job-opening',
      base: '/job-opening',
      subject: 'JobOpening',
      publicRead: true,
    });
    expect(manifest.seed).toBeUndefined();
    expect(manifest.description).toMatch(/^REWRITE THIS DESCRIPTION \(copied from the entity "vacancy"/);
    expect(plan.files.get('screens/job-opening-detail.json')).toMatchObject({
      id: 'job-opening-detail',
      route: '/admin/job-openings/:id',
      entity: 'job-opening',
      titleKey: 'screen.job-opening-detail.title',
      permission: 'read JobOpening',
    });
    const schema = plan.files.get('schemas/job-opening/schema.json') as any;
    expect(schema.properties.position.title).toBe('entity.job-opening.field.position');
    expect(plan.texts.get('entity.job-opening.field.position')).toEqual(
      plan.texts.get('entity.job-opening.field.position') && expect.objectContaining({ en: 'Position' }),
    );
    expect(plan.texts.get('screen.job-opening-new.title')!.en).toBe('Job openings: new');
    const officer = plan.access.roles.find((r) => r.code === 'public-information')!;
    expect(officer.permissions).toEqual(
      expect.arrayContaining(['read JobOpening', 'create JobOpening', 'update JobOpening', 'delete JobOpening']),
    );
  });

  it('copies the machine as its own, with its labels', () => {
    const plan = likeEntity(input('billboard-permit', { like: 'advertising-passport' }));
    expect((plan.files.get('schemas/billboard-permit/entity.json') as any).workflow).toBe('billboard-permit');
    expect(plan.files.get('workflows/billboard-permit.machine.json')).toMatchObject({
      id: 'billboard-permit',
      version: 1,
    });
    expect(plan.texts.get('workflow.billboard-permit.states.SEEN')!.en).toBe('Seen');
    expect(plan.machine).toBe('billboard-permit');
  });
});

describe('the texts go through one writer', () => {
  let root: string;
  const fixture = (): string => {
    root = mkdtempSync(path.join(os.tmpdir(), 'scaffold-i18n-'));
    mkdirSync(path.join(root, 'schemas/vacancy'), { recursive: true });
    mkdirSync(path.join(root, 'workflows'));
    mkdirSync(path.join(root, 'src/i18n/locales'), { recursive: true });
    for (const l of ['en', 'ru', 'uz', 'uzCyrillic'])
      writeFileSync(
        path.join(root, `src/i18n/locales/${l}.json`),
        JSON.stringify({ entity: { vacancy: { title: l } } }),
      );
    return root;
  };
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const texts = () =>
    new Map([
      ['entity.kiosk.title', englishOnly('Kiosks')],
      ['screen.kiosk-list.title', englishOnly('Kiosks')],
      ['workflow.kiosk.states.ACTIVE', englishOnly('Active')],
    ]);
  const read = (rel: string) => JSON.parse(readFileSync(path.join(root, rel), 'utf8'));

  it('per entity: schemas/<id>/i18n.json and workflows/<machine>.i18n.json, trees rooted at the locale root', () => {
    fixture();
    const files = writeTranslations(root, texts(), { entity: 'kiosk', machine: 'kiosk' }, 'per-entity');
    expect(files).toEqual(['schemas/kiosk/i18n.json', 'workflows/kiosk.i18n.json']);
    const entity = read('schemas/kiosk/i18n.json');
    expect(Object.keys(entity)).toEqual(['en', 'ru', 'uz', 'uzCyrillic']);
    expect(entity.en).toEqual({
      entity: { kiosk: { title: 'Kiosks' } },
      screen: { 'kiosk-list': { title: 'Kiosks' } },
    });
    expect(entity.ru.entity.kiosk.title).toBe('[translate] Kiosks');
    expect(read('workflows/kiosk.i18n.json').uz).toEqual({
      workflow: { kiosk: { states: { ACTIVE: '[translate] Active' } } },
    });
  });

  it('shell: into the four locale files, never over an existing key', () => {
    fixture();
    writeTranslations(root, texts(), { entity: 'kiosk', machine: 'kiosk' }, 'shell');
    expect(read('src/i18n/locales/ru.json').entity).toEqual({
      vacancy: { title: 'ru' },
      kiosk: { title: '[translate] Kiosks' },
    });
    expect(() =>
      writeTranslations(root, new Map([['entity.vacancy.title', englishOnly('x')]]), { entity: 'vacancy' }, 'shell'),
    ).toThrow(/the key "entity.vacancy.title" exists already/);
  });

  it('shell: a key refused in one language leaves all four files as they were', () => {
    fixture();
    writeFileSync(
      path.join(root, 'src/i18n/locales/en.json'),
      JSON.stringify({ entity: { kiosk: { title: 'left over' } } }),
    );
    const before = ['uz', 'uzCyrillic', 'ru', 'en'].map((l) =>
      readFileSync(path.join(root, `src/i18n/locales/${l}.json`), 'utf8'),
    );
    expect(() => writeTranslations(root, texts(), { entity: 'kiosk' }, 'shell')).toThrow(
      /en.json: the key "entity.kiosk.title"/,
    );
    const after = ['uz', 'uzCyrillic', 'ru', 'en'].map((l) =>
      readFileSync(path.join(root, `src/i18n/locales/${l}.json`), 'utf8'),
    );
    expect(after).toEqual(before);
  });

  it('the layout follows the repository: per entity once an entity has its i18n.json', () => {
    fixture();
    expect(translationLayout(root)).toBe('shell');
    writeFileSync(path.join(root, 'schemas/vacancy/i18n.json'), '{}');
    expect(translationLayout(root)).toBe('per-entity');
  });
});
