/**
 * A board screen (kind `board`, docs/boards.md): the columns and cards of one parent record
 * (the route parameter `options.parentParam`), from two entities that declare `order`. Cards
 * and columns are dragged with the mouse or touch (@dnd-kit), or with the keyboard (space,
 * arrows, space — announced in the user's language), or moved by their menus; a move shows at
 * once and goes back, with a message, when someone changed the board meanwhile (409). Columns
 * and cards are added and edited in dialogs with their entity's own form. On a phone the
 * columns scroll sideways inside the board.
 */
import {
  closestCorners,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { horizontalListSortingStrategy, SortableContext, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DismissRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { ScreenProps } from '../types.ts';
import type { BoardOptions } from '../../generated/meta.ts';
import type { EntityDefinition } from '../../definitions/registry.ts';
import type { StoredRecord } from '../../client/data-provider.ts';
import { useDelete, useEntity, useGetOne } from '../../client/react/hooks.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { valueAt } from '../../shared/pointer.ts';
import { ScreenState } from '../common/ScreenState.tsx';
import { useConfirm } from '../common/useConfirm.tsx';
import { entityScreenPath } from '../common/routes.ts';
import { BoardColumn } from './BoardColumn.tsx';
import { BoardCard, type CardFields } from './BoardCard.tsx';
import { RecordDialog, type DialogRequest } from './RecordDialog.tsx';
import { columnKey, groupOf, parseKey, stepTarget, type Step } from './board-data.ts';
import { useBoard } from './useBoard.ts';

const useStyles = makeStyles({
  head: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  grow: { flexGrow: 1 },
  // The board scrolls sideways inside itself; the page never does (360 px).
  columns: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalM,
    overflowX: 'auto',
    maxWidth: '100%',
    paddingBottom: tokens.spacingVerticalM,
    marginTop: tokens.spacingVerticalM,
  },
});

/** The board screen: definitions first, then the board. */
export default function BoardScreen({ screen }: ScreenProps) {
  const options = screen.options as unknown as BoardOptions;
  const params = useParams();
  const parentId = Number(params[options.parentParam]);
  const cardDef = useEntity(screen.entity);
  const columnDef = useEntity(options.columns.entity);
  if (!cardDef.data || !columnDef.data)
    return <ScreenState screenId={screen.id} error={cardDef.error ?? columnDef.error} />;
  return (
    <BoardView
      screen={screen}
      options={options}
      parentId={parentId}
      cardDef={cardDef.data}
      columnDef={columnDef.data}
    />
  );
}

const labelOf = (def: EntityDefinition, r: StoredRecord): string =>
  String(valueAt(r, def.manifest.labelField ?? '/name') ?? `#${r.id}`);

function BoardView({
  screen,
  options,
  parentId,
  cardDef,
  columnDef,
}: ScreenProps & { options: BoardOptions; parentId: number; cardDef: EntityDefinition; columnDef: EntityDefinition }) {
  const s = useStyles();
  const { t } = useTranslation();
  const ability = useAbility();
  const board = useBoard(options, parentId, columnDef, cardDef);
  const parent = useGetOne(board.parentEntity ?? '', board.parentEntity ? parentId : undefined);
  const parentDef = useEntity(board.parentEntity);
  const { confirm, dialog: confirmDialog } = useConfirm();
  const [dialog, setDialog] = useState<DialogRequest | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const deleteColumn = useDelete(columnDef.id);
  const deleteCard = useDelete(cardDef.id);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  if (!board.columns.data || !board.cards.data)
    return <ScreenState screenId={screen.id} error={board.columns.error ?? board.cards.error} />;

  const { columnList, groups, byColumn, cardFields, columnFields } = board;
  const cardById = new Map(board.cards.data.list.map((c) => [c.id, c]));
  const columnById = new Map(columnList.map((c) => [c.id, c]));
  const top = (p: string | undefined) => (p ?? '').slice(1);
  const fields: CardFields = {
    label: cardDef.manifest.labelField ?? '/name',
    color: options.cards.colorField,
    employees: options.cards.employeesField,
    employeesLabel: options.cards.employeesField
      ? t(String((cardDef.schema.properties?.[top(options.cards.employeesField)] as { title?: string })?.title ?? ''))
      : undefined,
    deadline: options.cards.deadlineField,
    files: options.cards.filesField,
  };

  /** Where a drop lands: a column and a place in it. */
  const placeOf = (key: string | number): { group: string; index: number } | undefined => {
    const target = parseKey(key);
    if (!target) return undefined;
    if (target.kind === 'column')
      return { group: String(target.id), index: byColumn.get(String(target.id))?.length ?? 0 };
    const card = cardById.get(target.id);
    if (!card) return undefined;
    const group = groupOf(card, cardFields);
    return { group, index: (byColumn.get(group) ?? []).findIndex((c) => c.id === card.id) };
  };
  const placeText = (key: string | number): string => {
    const place = placeOf(key);
    const column = place ? columnById.get(Number(place.group)) : undefined;
    return column ? t('board.place', { column: labelOf(columnDef, column), index: place!.index + 1 }) : '';
  };
  const nameOf = (key: string | number): string => {
    const k = parseKey(key);
    const r = k?.kind === 'card' ? cardById.get(k.id) : k ? columnById.get(k.id) : undefined;
    return r ? labelOf(k?.kind === 'card' ? cardDef : columnDef, r) : '';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('board.pickedUp', { name: nameOf(active.id) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('board.over', { name: nameOf(active.id), target: placeText(over.id) })
        : t('board.overNothing', { name: nameOf(active.id) }),
    onDragEnd: ({ active, over }) =>
      over
        ? t('board.dropped', { name: nameOf(active.id), target: placeText(over.id) })
        : t('board.cancelled', { name: nameOf(active.id) }),
    onDragCancel: ({ active }) => t('board.cancelled', { name: nameOf(active.id) }),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const moving = parseKey(active.id);
    if (!moving || !over) return;
    if (moving.kind === 'column') {
      const column = columnById.get(moving.id);
      const place = placeOf(over.id);
      if (!column || !place) return;
      const index = groups.indexOf(place.group);
      if (index >= 0 && index !== groups.indexOf(String(column.id))) board.moveColumnTo(column, index);
      return;
    }
    const card = cardById.get(moving.id);
    const place = placeOf(over.id);
    if (!card || !place) return;
    const from = groupOf(card, cardFields);
    const index = from !== place.group && parseKey(over.id)?.kind === 'column' ? place.index : Math.max(place.index, 0);
    const now = (byColumn.get(from) ?? []).findIndex((c) => c.id === card.id);
    if (from === place.group && now === index) return;
    board.moveCardTo(card, place.group, index);
  };
  const stepCard = (card: StoredRecord, step: Step) => {
    const target = stepTarget(groups, byColumn, card, step, cardFields);
    if (target) board.moveCardTo(card, target.group, target.index);
  };

  const addColumn = () =>
    setDialog({
      def: columnDef,
      title: t('board.addColumn'),
      fixed: { [top(options.columns.parentField)]: parentId, [top(columnFields.position)]: columnList.length },
    });
  const addCard = (column: StoredRecord) =>
    setDialog({
      def: cardDef,
      title: t('board.addCard'),
      fixed: {
        [top(options.cards.columnField)]: column.id,
        [top(options.cards.parentField)]: parentId,
        [top(cardFields.position)]: byColumn.get(String(column.id))?.length ?? 0,
      },
    });
  const fixedOf = (r: StoredRecord, pointers: string[]) =>
    Object.fromEntries(pointers.map((p) => [top(p), valueAt(r, p)]));
  const removeColumn = async (column: StoredRecord) => {
    const count = byColumn.get(String(column.id))?.length ?? 0;
    const name = labelOf(columnDef, column);
    if (count > 0) return setNotice(t('board.deleteColumnNotEmpty', { name, count }));
    const ok = await confirm({
      key: 'delete-column',
      title: t('board.deleteColumn', { name }),
      message: '',
      confirmLabel: t('board.delete'),
    });
    if (ok) deleteColumn.mutate({ id: column.id, version: column.version });
  };
  const removeCard = async (card: StoredRecord) => {
    const name = labelOf(cardDef, card);
    const ok = await confirm({
      key: 'delete-card',
      title: t('board.deleteCard', { name }),
      message: '',
      confirmLabel: t('board.delete'),
    });
    if (ok) deleteCard.mutate({ id: card.id, version: card.version });
  };

  const parentHref = board.parentEntity
    ? entityScreenPath(board.parentEntity, ['detail'], parentId, ability)
    : undefined;
  const parentName =
    parent.data && board.parentEntity ? String(valueAt(parent.data, '/name') ?? `#${parentId}`) : `#${parentId}`;
  return (
    <div data-screen={screen.id} data-entity={cardDef.id}>
      <div className={s.head}>
        <Title2 as="h1" className={s.grow}>
          {t(screen.titleKey)}: {parentHref ? <Link to={parentHref}>{parentName}</Link> : parentName}
        </Title2>
        {board.can.addColumns && (
          <Button icon={<AddRegular />} data-action="add-column" onClick={addColumn}>
            {t('board.addColumn')}
          </Button>
        )}
      </div>
      {(board.conflict || notice) && (
        <MessageBar intent="warning" data-message={board.conflict ? 'conflict' : 'notice'}>
          <MessageBarBody>{board.conflict ? t('board.conflict') : notice}</MessageBarBody>
          <MessageBarActions
            containerAction={
              <Button
                appearance="transparent"
                icon={<DismissRegular />}
                aria-label={t('board.cancel')}
                onClick={() => (board.clearConflict(), setNotice(null))}
              />
            }
          />
        </MessageBar>
      )}
      {columnList.length === 0 && <p>{t('board.noColumns')}</p>}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCorners}
        onDragEnd={onDragEnd}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('board.instructions') } }}
      >
        <SortableContext items={groups.map(columnKey)} strategy={horizontalListSortingStrategy}>
          <div className={s.columns} data-board-columns="">
            {columnList.map((column, i) => {
              const cards = byColumn.get(String(column.id)) ?? [];
              return (
                <BoardColumn
                  key={column.id}
                  id={column.id}
                  name={labelOf(columnDef, column)}
                  cardIds={cards.map((c) => c.id)}
                  canEdit={board.can.editColumns}
                  canAddCard={board.can.addCards}
                  first={i === 0}
                  last={i === columnList.length - 1}
                  onAddCard={() => addCard(column)}
                  onRename={() =>
                    setDialog({
                      def: columnDef,
                      title: t('board.rename'),
                      record: column,
                      fixed: fixedOf(column, [options.columns.parentField, columnFields.position]),
                    })
                  }
                  onDelete={() => void removeColumn(column)}
                  onStep={(step) => board.moveColumnTo(column, i + (step === 'left' ? -1 : 1))}
                >
                  {cards.map((card) => (
                    <BoardCard
                      key={card.id}
                      card={card}
                      fields={fields}
                      href={entityScreenPath(cardDef.id, ['detail'], card.id, ability)}
                      names={board.names}
                      canEdit={board.can.editCards}
                      steps={(['left', 'right', 'up', 'down'] as const).filter((st) =>
                        stepTarget(groups, byColumn, card, st, cardFields),
                      )}
                      onStep={(step) => stepCard(card, step)}
                      onEdit={() =>
                        setDialog({
                          def: cardDef,
                          title: t('board.edit'),
                          record: card,
                          fixed: fixedOf(card, [
                            options.cards.columnField,
                            options.cards.parentField,
                            cardFields.position,
                          ]),
                        })
                      }
                      onDelete={() => void removeCard(card)}
                    />
                  ))}
                </BoardColumn>
              );
            })}
          </div>
        </SortableContext>
      </DndContext>
      {dialog && <RecordDialog request={dialog} onClose={() => setDialog(null)} />}
      {confirmDialog}
    </div>
  );
}
