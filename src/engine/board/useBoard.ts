/**
 * The data of a board screen: its two definitions, the parent's columns and cards (every one,
 * in order), the staff names of the cards' employees, what the user may do, and the moves —
 * shown at once and put back when the server refuses them (`useMoveRecord`).
 */
import { useMemo, useState } from 'react';
import type { JSONSchema7 } from 'json-schema';
import type { BoardOptions } from '../../generated/meta.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { StoredRecord } from '../../client/data-provider.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { useGetEvery, useGetStaffUsers, useMoveRecord } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { sortName } from '../../shared/format.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { valueAt } from '../../shared/pointer.ts';
import { byGroup, inOrder, moved, type ListData, type OrderFields } from './board-data.ts';

/** The name of the grid's eq filter on `field` (`npm run check` makes sure there is one). */
const eqFilter = (def: EntityDefinition, field: string): string =>
  def.grid.filters.find((f) => f.kind === 'eq' && f.field === field)?.name ?? field.slice(1);

/** A group key back as the API wants it: a number for an integer field. */
export const groupValue = (key: string): string | number => (/^\d+$/.test(key) ? Number(key) : key);

/** Everything the board screen shows and does (see the file comment). */
export function useBoard(
  options: BoardOptions,
  parentId: number,
  columnDef: EntityDefinition,
  cardDef: EntityDefinition,
) {
  const ability = useAbility();
  const [conflict, setConflict] = useState(false);
  const columnFields = useMemo<OrderFields>(
    () => ({ position: columnDef.manifest.order?.field ?? '/position', group: options.columns.parentField }),
    [columnDef, options],
  );
  const cardFields = useMemo<OrderFields>(
    () => ({ position: cardDef.manifest.order?.field ?? '/position', group: options.cards.columnField }),
    [cardDef, options],
  );
  const columnQuery = useMemo(
    () => ({
      filters: { [eqFilter(columnDef, options.columns.parentField)]: parentId },
      sortBy: [sortName(columnFields.position), 'id'],
    }),
    [columnDef, options, parentId, columnFields.position],
  );
  const cardQuery = useMemo(
    () => ({
      filters: { [eqFilter(cardDef, options.cards.parentField)]: parentId },
      sortBy: [sortName(cardFields.position), 'id'],
    }),
    [cardDef, options, parentId, cardFields.position],
  );
  const columns = useGetEvery(columnDef.id, columnQuery.filters, columnQuery.sortBy);
  const cards = useGetEvery(cardDef.id, cardQuery.filters, cardQuery.sortBy);
  const onConflict = () => setConflict(true);
  const moveColumn = useMoveRecord<ListData>(
    columnDef.id,
    queryKeys.entity.every(columnDef.id, columnQuery.filters, columnQuery.sortBy),
    (data, m) => moved(data, columnFields, { id: m.id, index: m.input.index }),
    onConflict,
  );
  const moveCard = useMoveRecord<ListData>(
    cardDef.id,
    queryKeys.entity.every(cardDef.id, cardQuery.filters, cardQuery.sortBy),
    (data, m) => moved(data, cardFields, { id: m.id, group: m.input.group, index: m.input.index }),
    onConflict,
  );

  const columnList = useMemo(() => inOrder(columns.data?.list ?? [], columnFields), [columns.data, columnFields]);
  const groups = useMemo(() => columnList.map((c) => String(c.id)), [columnList]);
  const byColumn = useMemo(() => byGroup(cards.data?.list ?? [], cardFields, groups), [cards.data, cardFields, groups]);
  const employeeIds = useMemo(() => {
    const field = options.cards.employeesField;
    const ids = field ? (cards.data?.list ?? []).flatMap((c) => (valueAt(c, field) as number[] | undefined) ?? []) : [];
    return [...new Set(ids)].sort((a, b) => a - b);
  }, [cards.data, options]);
  const staff = useGetStaffUsers(employeeIds);
  const names = useMemo(() => new Map((staff.data ?? []).map((u) => [u.id, u.name])), [staff.data]);
  // The parent record's entity: the columns' order groupEntity, else the one their parent field links to.
  const parentField = resolveFieldSchema(columnDef.schema, options.columns.parentField) as
    | (JSONSchema7 & { entityRef?: { entity: string } })
    | undefined;

  return {
    columns,
    cards,
    columnList,
    groups,
    byColumn,
    names,
    columnFields,
    cardFields,
    parentEntity: columnDef.manifest.order?.groupEntity ?? parentField?.entityRef?.entity,
    conflict,
    clearConflict: () => setConflict(false),
    can: {
      editColumns: ability.can('update', columnDef.manifest.subject),
      addColumns: ability.can('create', columnDef.manifest.subject),
      deleteColumns: ability.can('delete', columnDef.manifest.subject),
      editCards: ability.can('update', cardDef.manifest.subject),
      addCards: ability.can('create', cardDef.manifest.subject),
      deleteCards: ability.can('delete', cardDef.manifest.subject),
    },
    /** Moves a column to `index`. */
    moveColumnTo: (column: StoredRecord, index: number) =>
      moveColumn.mutate({ id: column.id, input: { index, version: column.version } }),
    /** Moves a card to `index` of column `group` (a group key). */
    moveCardTo: (card: StoredRecord, group: string, index: number) =>
      moveCard.mutate({ id: card.id, input: { group: groupValue(group), index, version: card.version } }),
  };
}

/** What {@link useBoard} answers. */
export type Board = ReturnType<typeof useBoard>;
