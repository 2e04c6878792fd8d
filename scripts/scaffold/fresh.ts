/**
 * The files of a new entity made from nothing (`npm run new:entity -- <id> [--workflow]`): the
 * smallest set `npm run check` accepts and the generated tests cover — two fields (a name and
 * a date), a form, a list with a keyword and a date filter, edit rules, four screens with a
 * menu entry, and with `--workflow` a two-state machine ACTIVE ⇄ ARCHIVED (whose status labels
 * `status.ACTIVE`/`status.ARCHIVED` exist already).
 */
import { englishOnly, type FlatTexts } from './translations.ts';
import { grantDefaultRoles, nextMenuOrder, plural, type Plan, type PlanInput } from './plan.ts';

/** The machine's two states and its two events (the state labels reuse the global `status.*`). */
export const SCAFFOLD_STATES = { initial: 'ACTIVE', other: 'ARCHIVED' } as const;
export const SCAFFOLD_EVENTS = { forward: 'ARCHIVE', back: 'RESTORE' } as const;

/** The manifest's description until the analyst writes the real one (the check needs one). */
export const DESCRIPTION_TO_REWRITE =
  'REWRITE THIS DESCRIPTION: what one record is, who keeps the registry and why, and the decisions taken where the spec is silent. Made by npm run new:entity.';

/**
 * A new entity `id` made from nothing: every file, its texts and its permissions.
 * @example freshEntity({ id: 'sugar-outlet', subject: 'SugarOutlet', title: 'Sugar outlets', workflow: true, ... })
 */
export function freshEntity(input: PlanInput): Plan {
  const { id, subject, title, workflow, registry } = input;
  const entity = (file: string) => `schemas/${id}/${file}`;
  const files = new Map<string, unknown>();
  const field = (name: string) => `entity.${id}.field.${name}`;
  files.set(entity('entity.json'), {
    $schema: '../_meta/entity.schema.json',
    id,
    description: DESCRIPTION_TO_REWRITE,
    base: `/${id}`,
    titleKey: `entity.${id}.title`,
    subject,
    schema: 'schema.json',
    ui: 'ui.json',
    grid: 'grid.json',
    edit: 'edit.json',
    ...(workflow ? { workflow: id } : { initialStatus: SCAFFOLD_STATES.initial }),
    labelField: '/name',
    keywordFields: ['/name'],
  });
  files.set(entity('schema.json'), {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `entity.${id}.title`,
    type: 'object',
    additionalProperties: false,
    required: ['name', 'startDate'],
    properties: {
      name: { title: field('name'), type: 'string', minLength: 1, maxLength: 200 },
      startDate: { title: field('startDate'), type: 'string', format: 'date' },
    },
  });
  files.set(entity('ui.json'), {
    $schema: '../_meta/ui.schema.json',
    uiSchema: { 'ui:order': ['name', 'startDate'], startDate: { 'ui:widget': 'date' } },
  });
  files.set(entity('grid.json'), {
    $schema: '../_meta/grid.schema.json',
    columns: [
      { field: '/id', titleKey: 'common.field.id', sortable: true },
      { field: '/name', titleKey: field('name'), sortable: true },
      { field: '/startDate', titleKey: field('startDate'), format: 'date', sortable: true },
      { field: '/status', titleKey: 'common.field.status', format: 'status', sortable: true },
    ],
    defaultSort: [{ field: '/startDate', desc: true }],
    filters: [
      { name: 'keyword', kind: 'keyword', titleKey: 'common.filter.keyword' },
      { name: 'startDate', kind: 'dateRange', field: '/startDate', titleKey: field('startDate') },
      // The generated export test filters by the creation date when the grid has no eq/in filter.
      { name: 'createdDate', kind: 'dateRange', field: '/createdAt', titleKey: 'common.filter.createdDate' },
      ...(workflow ? [{ name: 'status', kind: 'eq', field: '/status', titleKey: 'common.filter.status' }] : []),
    ],
  });
  files.set(entity('edit.json'), {
    $schema: '../_meta/edit.schema.json',
    description:
      'Whoever may update a record changes any of its fields, in every status; whoever may delete one deletes it. (Made by npm run new:entity: narrow it per status when the registry needs it.)',
    states: { '*': { update: [{ who: 'any', fields: 'all' }], delete: 'any' } },
  });

  const route = `/admin/${plural(id)}`;
  const screens: Array<[string, string, string, string]> = [
    ['list', route, 'list', `read ${subject}`],
    ['new', `${route}/new`, 'form', `create ${subject}`],
    ['edit', `${route}/:id/edit`, 'form', `update ${subject}`],
    ['detail', `${route}/:id`, 'detail', `read ${subject}`],
  ];
  const section = 'menu.section.registries';
  for (const [suffix, screenRoute, kind, permission] of screens) {
    files.set(`screens/${id}-${suffix}.json`, {
      $schema: '../schemas/_meta/screen.schema.json',
      id: `${id}-${suffix}`,
      route: screenRoute,
      kind,
      entity: id,
      titleKey: `screen.${id}-${suffix}.title`,
      permission,
      ...(suffix === 'list'
        ? { menu: { section, order: nextMenuOrder(registry, section), icon: 'DocumentBulletList' } }
        : {}),
    });
  }

  const texts: FlatTexts = new Map([
    [`entity.${id}.title`, englishOnly(title)],
    [field('name'), englishOnly('Name')],
    [field('startDate'), englishOnly('Start date')],
    [`screen.${id}-list.title`, englishOnly(title)],
    [`screen.${id}-new.title`, englishOnly(`${title}: new`)],
    [`screen.${id}-edit.title`, englishOnly(`${title}: edit`)],
    [`screen.${id}-detail.title`, englishOnly(title)],
  ]);

  const events: string[] = [];
  // Without a machine the list's status column labels the one status as entity.<id>.states.<STATE>
  // (the per-entity texts' convention; unused while the global status.* labels are in use).
  if (!workflow) texts.set(`entity.${id}.states.${SCAFFOLD_STATES.initial}`, englishOnly('Active'));
  if (workflow) {
    const { initial, other } = SCAFFOLD_STATES;
    const { forward, back } = SCAFFOLD_EVENTS;
    files.set(`workflows/${id}.machine.json`, {
      $schema: '../schemas/_meta/machine.schema.json',
      id,
      version: 1,
      description: `The life of one record of ${id}: in use, or archived and back. (Made by npm run new:entity: rename the states and events, add the real ones.)`,
      initial,
      states: {
        [initial]: {
          description: 'In use.',
          on: { [forward]: { target: other, description: 'Archive the record: it is no longer in use.' } },
        },
        [other]: {
          description: 'Archived: kept, no longer in use.',
          on: { [back]: { target: initial, description: 'Bring the record back into use.' } },
        },
      },
    });
    texts.set(`workflow.${id}.states.${initial}`, englishOnly('Active'));
    texts.set(`workflow.${id}.states.${other}`, englishOnly('Archived'));
    texts.set(`workflow.${id}.events.${forward}`, englishOnly('Archive'));
    texts.set(`workflow.${id}.events.${back}`, englishOnly('Restore'));
    events.push(forward, back);
  }
  const access = grantDefaultRoles(input.access, subject, events);
  return { files, texts, access: access.json, grants: access.grants, machine: workflow ? id : undefined };
}
