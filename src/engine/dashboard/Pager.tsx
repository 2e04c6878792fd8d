import { useTranslation } from 'react-i18next';
import { ShellButton } from '../common/primitives.tsx';
import { formatNumber } from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import { useStyles } from './styles.ts';

/**
 * Under a paged table: which rows are shown of how many ("Rows 21–40 of 661") and the previous
 * and next page, so every row of a long list can be reached.
 */
export function Pager({
  page,
  perPage,
  shown,
  total,
  onPage,
}: {
  page: number;
  perPage: number;
  shown: number;
  total: number;
  onPage(page: number): void;
}) {
  const { t, i18n } = useTranslation();
  const s = useStyles();
  const locale = pickLocale(i18n.language);
  const from = page * perPage + 1;
  const last = Math.max(0, Math.ceil(total / perPage) - 1);
  return (
    <nav className={s.pager} aria-label={t('fixes.pager.label')}>
      <ShellButton data-action="previous-page" disabled={page === 0} onClick={() => onPage(page - 1)}>
        ← {t('fixes.pager.previous')}
      </ShellButton>
      <span data-count aria-live="polite">
        {t('fixes.pager.count', {
          from: formatNumber(from, locale),
          to: formatNumber(from + shown - 1, locale),
          total: formatNumber(total, locale),
        })}
      </span>
      <ShellButton data-action="next-page" disabled={page >= last} onClick={() => onPage(page + 1)}>
        {t('fixes.pager.next')} →
      </ShellButton>
    </nav>
  );
}
