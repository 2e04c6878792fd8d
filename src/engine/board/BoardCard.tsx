/**
 * One card of a board: a colour stripe, the name (a link to the card's record page), the
 * employees as avatars with their names, the deadline and the number of files; a handle to
 * drag it (mouse, touch, or the keyboard: space, arrows, space) and a menu with "move
 * left/right/up/down", edit and delete for those who cannot or would rather not drag.
 */
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Avatar, Button, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import {
  ArrowDownRegular,
  ArrowLeftRegular,
  ArrowRightRegular,
  ArrowUpRegular,
  AttachRegular,
  CalendarRegular,
  DeleteRegular,
  EditRegular,
  ReOrderDotsVerticalRegular,
} from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { ItemMenu } from './ItemMenu.tsx';
import { Link } from 'react-router-dom';
import type { StoredRecord } from '../../client/data-provider.ts';
import { formatDate } from '../../shared/format.ts';
import { valueAt } from '../../shared/pointer.ts';
import { cardKey, type Step } from './board-data.ts';

/** The palette of card colours (a card's colour field holds one of these names). */
export const CARD_COLORS: Record<string, string> = {
  blue: tokens.colorPaletteBlueBorderActive,
  green: tokens.colorPaletteGreenBorderActive,
  yellow: tokens.colorPaletteYellowBorderActive,
  orange: tokens.colorPaletteDarkOrangeBorderActive,
  red: tokens.colorPaletteRedBorderActive,
  purple: tokens.colorPalettePurpleBorderActive,
  grey: tokens.colorNeutralStroke1,
};

const useStyles = makeStyles({
  card: {
    display: 'flex',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow4,
    overflow: 'hidden',
  },
  stripe: { width: '6px', flexShrink: 0 },
  body: {
    flexGrow: 1,
    minWidth: 0,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
  head: { display: 'flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalXS },
  name: { flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere', fontWeight: tokens.fontWeightSemibold },
  handle: { cursor: 'grab', touchAction: 'none', minWidth: '24px' },
  facts: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  fact: { display: 'inline-flex', alignItems: 'center', gap: '2px', color: tokens.colorNeutralForeground3 },
  people: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalXS,
    alignItems: 'center',
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  dragging: { opacity: 0.5 },
});

/** What the card shows, by field (the board screen's options). */
export interface CardFields {
  label: string;
  color?: string | undefined;
  employees?: string | undefined;
  /** The employees field's title, in the user's language. */
  employeesLabel?: string | undefined;
  deadline?: string | undefined;
  files?: string | undefined;
}

/** One card (see the file comment). */
export function BoardCard({
  card,
  fields,
  href,
  names,
  canEdit,
  steps,
  onStep,
  onEdit,
  onDelete,
}: {
  card: StoredRecord;
  fields: CardFields;
  href: string | undefined;
  /** Staff names by user id. */
  names: ReadonlyMap<number, string>;
  canEdit: boolean;
  /** The steps possible from here (none at the board's edges). */
  steps: readonly Step[];
  onStep(step: Step): void;
  onEdit(): void;
  onDelete(): void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const name = String(valueAt(card, fields.label) ?? `#${card.id}`);
  const sortable = useSortable({ id: cardKey(card.id), data: { kind: 'card', name }, disabled: !canEdit });
  const color = fields.color ? CARD_COLORS[String(valueAt(card, fields.color) ?? '')] : undefined;
  const employees = fields.employees ? ((valueAt(card, fields.employees) as number[] | undefined) ?? []) : [];
  const deadline = fields.deadline ? valueAt(card, fields.deadline) : undefined;
  const files = fields.files ? ((valueAt(card, fields.files) as unknown[] | undefined) ?? []).length : 0;
  const stepIcons = { left: ArrowLeftRegular, right: ArrowRightRegular, up: ArrowUpRegular, down: ArrowDownRegular };
  const stepLabels = { left: 'board.moveLeft', right: 'board.moveRight', up: 'board.moveUp', down: 'board.moveDown' };
  return (
    <li
      ref={sortable.setNodeRef}
      style={{ transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition }}
      className={`${s.card} ${sortable.isDragging ? s.dragging : ''}`}
      data-card={card.id}
      data-card-name={name}
    >
      <span className={s.stripe} style={{ backgroundColor: color ?? tokens.colorNeutralStroke2 }} aria-hidden />
      <div className={s.body}>
        <div className={s.head}>
          {canEdit && (
            <Button
              appearance="transparent"
              size="small"
              className={s.handle}
              icon={<ReOrderDotsVerticalRegular />}
              aria-label={t('board.dragHandle', { name })}
              data-action="drag"
              {...sortable.attributes}
              {...sortable.listeners}
            />
          )}
          <span className={s.name}>{href ? <Link to={href}>{name}</Link> : name}</span>
          {canEdit && (
            <ItemMenu
              label={t('board.cardActions', { name })}
              action="card-menu"
              entries={[
                ...(['left', 'right', 'up', 'down'] as const).map((step) => {
                  const Icon = stepIcons[step];
                  return {
                    action: `move-${step}`,
                    label: t(stepLabels[step]),
                    icon: <Icon />,
                    disabled: !steps.includes(step),
                    onClick: () => onStep(step),
                  };
                }),
                { action: 'edit', label: t('board.edit'), icon: <EditRegular />, onClick: onEdit },
                { action: 'delete', label: t('board.delete'), icon: <DeleteRegular />, onClick: onDelete },
              ]}
            />
          )}
        </div>
        {(deadline || files > 0) && (
          <div className={s.facts}>
            {deadline ? (
              <Caption1 className={s.fact}>
                <CalendarRegular aria-hidden />
                {t('board.deadline', { date: formatDate(deadline) })}
              </Caption1>
            ) : null}
            {files > 0 && (
              <Caption1 className={s.fact}>
                <AttachRegular aria-hidden />
                {t('board.files', { count: files })}
              </Caption1>
            )}
          </div>
        )}
        {employees.length > 0 && (
          <ul className={s.people} aria-label={fields.employeesLabel}>
            {employees.map((id) => {
              const person = names.get(id) ?? `#${id}`;
              return (
                <li key={id} title={person}>
                  <Avatar size={24} name={person} aria-label={person} />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </li>
  );
}
