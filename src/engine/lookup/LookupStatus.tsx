import { Badge, Body1, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../shared/format.ts';
import { getAtPointer } from '../../shared/pointer.ts';
import { stateTexts } from '../common/state-texts.ts';

/** Where a lookup's answer keeps the status, the date of its last change and the deadline (JSON pointers). */
export interface StatusPanelOptions {
  status: string;
  changedAt?: string;
  deadline?: string;
}

const useStyles = makeStyles({
  panel: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    borderLeft: `4px solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusMedium,
  },
  head: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  sentence: { fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400 },
  muted: { color: tokens.colorNeutralForeground2 },
});

/**
 * A tracked record's status in plain words: the machine's label of the state as a chip, the
 * state's plain sentence (`workflow.<machine>.plain.<STATE>`, with {{since}} the last change
 * and {{deadline}}) and the date of the last change.
 */
export function LookupStatus({
  row,
  options,
  machine,
}: {
  row: Record<string, unknown>;
  options: StatusPanelOptions;
  machine: string;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const status = String(getAtPointer(row, options.status) ?? '');
  const changedAt = options.changedAt ? getAtPointer(row, options.changedAt) : undefined;
  const deadline = options.deadline ? getAtPointer(row, options.deadline) : undefined;
  const { label, plain } = stateTexts(t, machine, status, { since: changedAt, deadline });
  const since = changedAt ? formatDate(changedAt) : '';
  return (
    <section className={s.panel} data-region="tracked-status" data-status={status} aria-label={label}>
      <div className={s.head}>
        <Caption1 className={s.muted}>{t('journey.status.label')}</Caption1>
        <Badge appearance="tint" color="brand" size="large" data-region="status-label">
          {label}
        </Badge>
      </div>
      <Body1 className={s.sentence} data-region="status-plain">
        {plain}
      </Body1>
      {since && (
        <Body1 data-region="status-changed">
          {t('journey.status.changedAt')}: <strong>{since}</strong>
        </Body1>
      )}
      {deadline ? (
        <Body1 data-region="status-deadline">
          {t('journey.status.deadline')}: <strong>{formatDate(deadline)}</strong>
        </Body1>
      ) : null}
    </section>
  );
}
