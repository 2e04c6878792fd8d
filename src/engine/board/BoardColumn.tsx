/**
 * One column of a board: its name and card count, a menu (rename, move left/right, delete),
 * its cards in order (a vertical sortable list — a drop on the column itself puts a card at
 * its end) and "add card". The column is itself sortable among the columns by its handle.
 */
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Caption1, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import {
  AddRegular,
  ArrowLeftRegular,
  ArrowRightRegular,
  DeleteRegular,
  RenameRegular,
  ReOrderDotsHorizontalRegular,
} from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ItemMenu } from './ItemMenu.tsx';
import { cardKey, columnKey } from './board-data.ts';

const useStyles = makeStyles({
  column: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    width: '280px',
    maxWidth: '80vw',
    flexShrink: 0,
    padding: tokens.spacingHorizontalS,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusLarge,
  },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  name: { flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' },
  handle: { cursor: 'grab', touchAction: 'none' },
  cards: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    minHeight: '48px',
  },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalS },
  dragging: { opacity: 0.5 },
});

/** One column (see the file comment); `children` are its cards. */
export function BoardColumn({
  id,
  name,
  cardIds,
  canEdit,
  canAddCard,
  first,
  last,
  onAddCard,
  onRename,
  onDelete,
  onStep,
  children,
}: {
  id: number;
  name: string;
  cardIds: readonly number[];
  canEdit: boolean;
  canAddCard: boolean;
  first: boolean;
  last: boolean;
  onAddCard(): void;
  onRename(): void;
  onDelete(): void;
  onStep(step: 'left' | 'right'): void;
  children: ReactNode;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const sortable = useSortable({ id: columnKey(id), data: { kind: 'column', name }, disabled: !canEdit });
  return (
    <section
      ref={sortable.setNodeRef}
      style={{ transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition }}
      className={`${s.column} ${sortable.isDragging ? s.dragging : ''}`}
      data-column={id}
      data-column-name={name}
      aria-label={name}
    >
      <div className={s.head}>
        {canEdit && (
          <Button
            appearance="transparent"
            size="small"
            className={s.handle}
            icon={<ReOrderDotsHorizontalRegular />}
            aria-label={t('board.dragHandle', { name })}
            data-action="drag-column"
            {...sortable.attributes}
            {...sortable.listeners}
          />
        )}
        <Subtitle2 as="h2" className={s.name}>
          {name}
        </Subtitle2>
        <Caption1>{t('board.columnCards', { count: cardIds.length })}</Caption1>
        {canEdit && (
          <ItemMenu
            label={t('board.columnActions', { name })}
            action="column-menu"
            entries={[
              { action: 'rename', label: t('board.rename'), icon: <RenameRegular />, onClick: onRename },
              {
                action: 'move-left',
                label: t('board.moveLeft'),
                icon: <ArrowLeftRegular />,
                disabled: first,
                onClick: () => onStep('left'),
              },
              {
                action: 'move-right',
                label: t('board.moveRight'),
                icon: <ArrowRightRegular />,
                disabled: last,
                onClick: () => onStep('right'),
              },
              { action: 'delete', label: t('board.delete'), icon: <DeleteRegular />, onClick: onDelete },
            ]}
          />
        )}
      </div>
      <SortableContext items={cardIds.map(cardKey)} strategy={verticalListSortingStrategy}>
        <ul className={s.cards}>
          {children}
          {cardIds.length === 0 && <li className={s.empty}>{t('board.empty')}</li>}
        </ul>
      </SortableContext>
      {canAddCard && (
        <Button appearance="subtle" icon={<AddRegular />} data-action="add-card" onClick={onAddCard}>
          {t('board.addCard')}
        </Button>
      )}
    </section>
  );
}
