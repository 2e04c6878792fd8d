/**
 * `npm run check` rule part for the citizen's journey options of a screen (issue #17): the
 * confirmation page of a public submit (`options.submit.confirmation`: its texts, the
 * tracking screen it links to and the fields it pre-fills with), the cards presentation of a
 * list (`options.card`: fields, filters, texts, the plain state sentences it shows) and a
 * lookup's status panel (the machine's plain sentences). Called by the screens rule.
 */
import type { GridDefinition, ScreenDefinition } from '../../generated/meta.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import type { CheckContext, EntityEntry } from './context.ts';

type Options = {
  submit?: {
    confirmation?: { nextKeys?: string[]; track?: { screen: string; tab?: string; contact?: Record<string, string> } };
  };
  presentation?: 'grid' | 'cards';
  card?: {
    titleField?: string;
    subtitleField?: string;
    dateField?: string;
    filters?: string[];
    createScreen?: string;
  };
  statusPanel?: unknown;
  tabs?: Array<{ id: string; statusPanel?: unknown }>;
};

/** Checks the journey options of `screen` (file `file`) against its entity `target`. */
export function checkJourneyOptions(
  ctx: CheckContext,
  file: string,
  screen: ScreenDefinition,
  target: EntityEntry | undefined,
): void {
  const { report, useKey } = ctx;
  const options = screen.options as Options | undefined;
  const screenExists = (id: string) => ctx.sources.has(`screens/${id}.json`);
  const field = (pointer: string, value: string) => {
    if (target?.schema && !resolveFieldSchema(target.schema, value))
      report(file, pointer, `entity "${screen.entity}" has no field ${value}`);
  };
  // The plain sentence of every state, for screens that show them.
  const plainSentences = (pointer: string) => {
    const machine = target?.manifest.workflow ? ctx.machines.get(target.manifest.workflow) : undefined;
    if (!machine) return report(file, pointer, 'needs an entity with a workflow (its plain state sentences)');
    for (const state of Object.keys(machine.states)) useKey(file, pointer, `workflow.${machine.id}.plain.${state}`);
  };

  const confirmation = options?.submit?.confirmation;
  confirmation?.nextKeys?.forEach((key, i) => useKey(file, `/options/submit/confirmation/nextKeys/${i}`, key));
  const track = confirmation?.track;
  if (track && !screenExists(track.screen))
    report(file, '/options/submit/confirmation/track/screen', `screen "${track.screen}" does not exist`);
  for (const [param, pointer] of Object.entries(track?.contact ?? {}))
    field(`/options/submit/confirmation/track/contact/${param}`, pointer);

  if (options?.card && options.presentation !== 'cards')
    report(file, '/options/card', 'cards are shown only with "presentation": "cards"');
  if (options?.presentation === 'cards') {
    if (screen.kind !== 'list') report(file, '/options/presentation', 'cards are a presentation of a list screen');
    const cards = options.card ?? {};
    for (const k of ['titleField', 'subtitleField', 'dateField'] as const)
      if (cards[k]) field(`/options/card/${k}`, cards[k]!);
    const grid = target?.gridFile ? ctx.json<GridDefinition>(target.gridFile) : undefined;
    cards.filters?.forEach((name, i) => {
      const filter = grid?.filters.find((f) => f.name === name);
      const fits = filter && (filter.kind === 'keyword' || (filter.kind === 'eq' && filter.field === '/status'));
      if (!fits)
        report(file, `/options/card/filters/${i}`, `"${name}" is not the grid's keyword filter or its status filter`);
    });
    if (cards.createScreen && !screenExists(cards.createScreen))
      report(file, '/options/card/createScreen', `screen "${cards.createScreen}" does not exist`);
    plainSentences('/options/presentation');
  }
  if (options?.statusPanel) plainSentences('/options/statusPanel');
  options?.tabs?.forEach((tab, i) => {
    if (tab.statusPanel) plainSentences(`/options/tabs/${i}/statusPanel`);
  });
}
