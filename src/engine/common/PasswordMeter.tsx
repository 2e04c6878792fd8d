import { useId } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { PasswordIdentity } from '../../shared/password-policy.ts';
import { usePasswordVerdict } from './usePasswordVerdict.ts';
import { useLocaleSection } from './useLocaleSection.ts';

// The meter's words are a section of their own (vite.config.ts), loaded with the meter.
const texts = import.meta.glob<Record<string, unknown>>('../../i18n/locales/*.json', {
  query: '?section=passwordPolicy',
  import: 'default',
});

// Drawn with Fluent's tokens rather than its ProgressBar and Text: this chunk is loaded on
// demand, and sharing those components with the eager chunks would split them into more
// (and in sum larger) shared chunks on every form screen.
const useStyles = makeStyles({
  root: { display: 'grid', gap: tokens.spacingVerticalXXS, marginTop: tokens.spacingVerticalXS },
  bar: { display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: tokens.spacingHorizontalXXS, height: '4px' },
  segment: { borderRadius: tokens.borderRadiusSmall, backgroundColor: tokens.colorNeutralBackground5 },
  weak: { backgroundColor: tokens.colorPaletteRedBackground3 },
  fair: { backgroundColor: tokens.colorPaletteDarkOrangeBackground3 },
  strong: { backgroundColor: tokens.colorPaletteGreenBackground3 },
  reason: {
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
    // Two lines kept for the words, so the verdict arriving after a key press does not move
    // the buttons below while they are being reached for.
    minHeight: `calc(2 * ${tokens.lineHeightBase200})`,
  },
});

type Props = {
  /** The password being typed. */
  password: string;
  /** Who it is for: the username and e-mail it must not contain, names that weaken it. */
  identity: PasswordIdentity;
  /** The server already told why (a 400 on the field): the bar stays, the words are not repeated. */
  quiet?: boolean;
};

/**
 * The strength meter under a new-password field: four segments for zxcvbn's score
 * (`role="meter"`, 0–4, with the level as its text) and, in a polite live region, the
 * policy's reason in the user's language (too short, contains the username, too easy to
 * guess and how to do better) — the verdict the server gives on submit.
 * `data-password-meter` carries the score (`empty`, `pending`, 0–4) and `data-acceptable`
 * whether the policy accepts it, for tests.
 * @example <PasswordMeter password={value} identity={{ username: 'aziz' }} />
 */
export function PasswordMeter({ password, identity, quiet = false }: Props) {
  const s = useStyles();
  const { t } = useTranslation();
  const reasonId = useId();
  const { verdict, unavailable } = usePasswordVerdict(password, identity);
  const worded = useLocaleSection('passwordPolicy', texts);
  const score = verdict?.score;
  const level = score === undefined ? undefined : t(`passwordPolicy.strength.${score}`);
  let words: string;
  if (!verdict) words = t('passwordPolicy.rules');
  else if (verdict.problem)
    words = [
      t('passwordPolicy.meterValue', { level }),
      t(verdict.problem.key, verdict.problem.params),
      ...verdict.suggestions.slice(0, 1).map((key) => t(key)),
    ].join('. ');
  else if (verdict.pending) words = unavailable ? t('passwordPolicy.rules') : t('passwordPolicy.checking');
  else words = `${t('passwordPolicy.meterValue', { level })}. ${t('passwordPolicy.acceptable')}`;
  // Segments lit: one for a refusal or a score of 0–1, then one per step.
  const lit = score === undefined ? 0 : Math.max(1, score);
  const tone = !verdict?.acceptable ? (score === 2 ? s.fair : s.weak) : s.strong;
  return (
    <div
      className={s.root}
      data-password-meter={verdict ? (verdict.pending ? 'pending' : String(score)) : 'empty'}
      data-acceptable={verdict?.acceptable ? 'true' : 'false'}
    >
      <div
        className={s.bar}
        role="meter"
        aria-label={worded ? t('passwordPolicy.meter') : undefined}
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={score ?? 0}
        aria-valuetext={level}
        aria-describedby={reasonId}
      >
        {[1, 2, 3, 4].map((n) => (
          <span key={n} className={mergeClasses(s.segment, n <= lit && tone)} />
        ))}
      </div>
      <span id={reasonId} className={s.reason} role="status" aria-live="polite" data-password-reason>
        {!worded || (quiet && verdict?.problem) ? '' : words}
      </span>
    </div>
  );
}
