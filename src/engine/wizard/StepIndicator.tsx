import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CheckmarkCircleFilled } from '@fluentui/react-icons';

const useStyles = makeStyles({
  list: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    listStyle: 'none',
    padding: 0,
    margin: `${tokens.spacingVerticalM} 0`,
    flexWrap: 'wrap',
  },
  // Wrapped rather than scrolled sideways: on a 360 px phone every step stays visible.
  step: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    padding: '6px 10px',
    borderRadius: tokens.borderRadiusMedium,
    whiteSpace: 'nowrap',
    color: tokens.colorNeutralForeground3,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    cursor: 'default',
  },
  current: {
    color: tokens.colorNeutralForegroundOnBrand,
    backgroundColor: tokens.colorBrandBackground,
    border: `1px solid ${tokens.colorBrandBackground}`,
  },
  done: { color: tokens.colorBrandForeground1, cursor: 'pointer' },
  number: { fontWeight: tokens.fontWeightSemibold },
});

/** Numbered steps; steps already passed can be revisited by a click. */
export function StepIndicator({
  titles,
  current,
  onSelect,
}: {
  titles: string[];
  current: number;
  onSelect(index: number): void;
}) {
  const s = useStyles();
  return (
    <ol className={s.list} data-region="steps">
      {titles.map((title, i) => (
        <li
          key={title + i}
          className={mergeClasses(s.step, i === current && s.current, i < current && s.done)}
          data-step={i}
          aria-current={i === current ? 'step' : undefined}
          onClick={() => i < current && onSelect(i)}
          // Passed steps are revisited by keyboard too.
          tabIndex={i < current ? 0 : undefined}
          onKeyDown={(e) => {
            if (i < current && (e.key === 'Enter' || e.key === ' ')) {
              e.preventDefault();
              onSelect(i);
            }
          }}
        >
          {i < current ? <CheckmarkCircleFilled /> : <span className={s.number}>{i + 1}</span>}
          <span>{title}</span>
        </li>
      ))}
    </ol>
  );
}
