/**
 * `npm run check` rule for board screens (kind `board`, options per
 * schemas/_meta/board.schema.json, already valid against it) and for list screens' fixed
 * filters. A board's column entity exists; both the column entity and the screen's card entity
 * declare the manifest key `order`, grouped by the field that holds their parent (columns: the
 * parent field; cards: the column field); the fields the board shows exist with the right type;
 * the route has the parent parameter. A list's `fixedFilters` name filters of its grid.
 * Messages name the screen file and the JSON pointer.
 */
import type { BoardOptions } from '../../generated/meta.ts';
import { createFieldCheck, type CheckContext, type CheckRule, type EntityEntry } from './context.ts';
import { unknownNameMessage } from './suggest.ts';

/** The entity's grid has an eq filter on `field` (the board reads a parent's records through it). */
function eqFilterOn(ctx: CheckContext, file: string, at: string, entity: EntityEntry, field: string): void {
  const grid = entity.gridFile
    ? ctx.json<{ filters: Array<{ kind: string; field?: string }> }>(entity.gridFile)
    : undefined;
  if (!grid?.filters.some((f) => f.kind === 'eq' && f.field === field))
    ctx.report(
      file,
      at,
      `${entity.gridFile ?? entity.file} needs an eq filter on ${field}: the board reads the parent's records through it`,
    );
}

/** The entity's `order` groups by `field` (else a report at `at`). */
function orderedBy(ctx: CheckContext, file: string, at: string, entity: EntityEntry, field: string): void {
  const order = entity.manifest.order;
  if (!order)
    ctx.report(file, at, `${entity.manifest.id} must declare "order" (grouped by ${field}) in ${entity.file}`);
  else if (order.group !== field)
    ctx.report(
      file,
      at,
      `${entity.manifest.id}'s "order" groups by ${order.group ?? 'nothing'} in ${entity.file}, the board by ${field}`,
    );
}

function checkBoard(ctx: CheckContext, file: string, route: string, cardId: string | undefined, o: BoardOptions) {
  if (!route.split('/').includes(`:${o.parentParam}`))
    ctx.report(file, '/options/parentParam', `the route ${route} has no parameter ":${o.parentParam}"`);
  const columns = ctx.entities.get(o.columns.entity);
  if (!columns)
    ctx.report(
      file,
      '/options/columns/entity',
      unknownNameMessage('entity', o.columns.entity, 'an entity', [...ctx.entities.keys()]),
    );
  else if (columns.schema && columns.schemaFile) {
    createFieldCheck(ctx.report, columns.schema, columns.schemaFile)(
      file,
      '/options/columns/parentField',
      o.columns.parentField,
      { scalar: true },
    );
    orderedBy(ctx, file, '/options/columns', columns, o.columns.parentField);
    eqFilterOn(ctx, file, '/options/columns/parentField', columns, o.columns.parentField);
  }
  const cards = cardId ? ctx.entities.get(cardId) : undefined;
  if (!cards?.schema || !cards.schemaFile) return;
  const field = createFieldCheck(ctx.report, cards.schema, cards.schemaFile);
  const at = '/options/cards';
  field(file, `${at}/columnField`, o.cards.columnField, { scalar: true });
  field(file, `${at}/parentField`, o.cards.parentField, { scalar: true });
  if (o.cards.colorField) field(file, `${at}/colorField`, o.cards.colorField, { types: ['string'] });
  if (o.cards.employeesField) field(file, `${at}/employeesField`, o.cards.employeesField, { types: ['array'] });
  if (o.cards.deadlineField) field(file, `${at}/deadlineField`, o.cards.deadlineField, { types: ['string'] });
  if (o.cards.filesField) field(file, `${at}/filesField`, o.cards.filesField, { types: ['array'] });
  orderedBy(ctx, file, at, cards, o.cards.columnField);
  eqFilterOn(ctx, file, `${at}/parentField`, cards, o.cards.parentField);
}

/** Boards, and the fixed filters of lists. */
export const boardsRule: CheckRule = {
  name: 'boards',
  run(ctx) {
    for (const { file, screen } of ctx.screens) {
      if (screen.kind === 'board' && screen.options)
        checkBoard(ctx, file, screen.route, screen.entity, screen.options as unknown as BoardOptions);
      const fixed = (screen.options as { fixedFilters?: Record<string, string> } | undefined)?.fixedFilters;
      if (!fixed) continue;
      const entity = screen.entity ? ctx.entities.get(screen.entity) : undefined;
      const names = entity?.gridFile
        ? ctx.json<{ filters: Array<{ name: string }> }>(entity.gridFile).filters.map((f) => f.name)
        : [];
      for (const name of Object.keys(fixed))
        if (!names.includes(name))
          ctx.report(
            file,
            `/options/fixedFilters/${name}`,
            unknownNameMessage('filter', name, `a filter of ${screen.entity ?? 'the screen entity'}'s grid`, names),
          );
    }
  },
};
