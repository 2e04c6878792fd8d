import { Badge, type BadgeProps, makeStyles, Title2, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MachineDefinition } from '../../generated/meta.ts';
import { valueAt } from '../../shared/pointer.ts';
import { isEmptyValue, type ReadField } from './read-view.ts';
import { ReadValue, type ReadTools } from './ReadValue.tsx';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  titleRow: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  title: { margin: 0, overflowWrap: 'anywhere', minWidth: 0 },
  chip: { flexShrink: 0, maxWidth: '100%', whiteSpace: 'normal', height: 'auto', minHeight: '24px' },
  facts: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalXXL}`,
    margin: 0,
    padding: `${tokens.spacingVerticalS} 0`,
  },
  fact: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  term: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
});

/**
 * The colour of a state's chip, as the list colours it: the first state informative, a final
 * one success, the rest in progress.
 */
export function stateColor(machine: MachineDefinition | null | undefined, status: string): BadgeProps['color'] {
  const state = machine?.states?.[status] as { type?: string } | undefined;
  if (!state) return 'informative';
  if (state.type === 'final') return 'success';
  return status === machine?.initial ? 'informative' : 'warning';
}

/**
 * The head of a record page: its title (h1), the status chip with the state's one label (the
 * key the list uses), the key facts the detail screen declares (`options.keyFacts`; an empty
 * one shows a dash: "no executor yet" is worth knowing) and the actions.
 */
export function RecordHeader({
  title,
  status,
  keyFacts,
  data,
  tools,
  actions,
}: {
  title: string;
  /** The chip: the status, its label and colour; absent when the page shows no chip. */
  status?: { value: string; label: string; color: BadgeProps['color'] } | undefined;
  keyFacts: readonly ReadField[];
  data: Record<string, unknown>;
  tools: ReadTools;
  actions: ReactNode;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  return (
    <header className={s.root} data-region="record-header">
      <div className={s.titleRow}>
        <Title2 as="h1" className={s.title}>
          {title}
        </Title2>
        {status && (
          <Badge
            appearance="tint"
            size="large"
            color={status.color}
            className={s.chip}
            data-region="record-status"
            data-status={status.value}
          >
            {status.label}
          </Badge>
        )}
      </div>
      {keyFacts.length > 0 && (
        <dl className={s.facts} data-region="key-facts">
          {keyFacts.map((f) => (
            <div key={f.pointer} className={s.fact} data-fact={f.pointer}>
              <dt className={s.term}>{f.titleKey ? t(f.titleKey) : f.pointer.slice(1)}</dt>
              <dd className={s.value}>
                <ReadValue field={f} value={valueAt(data, f.pointer)} tools={tools} />
                {isEmptyValue(valueAt(data, f.pointer)) ? '—' : null}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <div className={s.actions}>{actions}</div>
    </header>
  );
}
