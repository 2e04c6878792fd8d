/**
 * Paging controls under a list: rows per page (10, 20, 30, 50, 100), "1–20 of 153",
 * "page 1 of 8" and first/previous/next/last buttons. Pages are 1-based here.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import {
  ChevronDoubleLeftRegular,
  ChevronDoubleRightRegular,
  ChevronLeftRegular,
  ChevronRightRegular,
} from '@fluentui/react-icons';
import { PAGE_SIZES } from './list-state.ts';

export interface ListPagerProps {
  /** 1-based. */
  page: number;
  itemsPerPage: number;
  total: number;
  /** More rows match than the server counted: the total is shown as "N+". */
  capped?: boolean;
  onPage(page: number): void;
  onPageSize(size: number): void;
}

const useStyles = makeStyles({
  pager: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'flex-end',
    gap: tokens.spacingHorizontalS,
    paddingTop: tokens.spacingVerticalS,
  },
  size: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  buttons: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
});

/** The number of pages a total fills (at least 1). */
export const pageCount = (total: number, itemsPerPage: number): number => Math.max(1, Math.ceil(total / itemsPerPage));

/** Paging controls. */
export default function ListPager({ page, itemsPerPage, total, capped = false, onPage, onPageSize }: ListPagerProps) {
  const styles = useStyles();
  const { t } = useTranslation();
  const pages = pageCount(total, itemsPerPage);
  const from = total === 0 ? 0 : (page - 1) * itemsPerPage + 1;
  const to = Math.min(total, page * itemsPerPage);
  const button = (action: string, label: string, icon: ReactElement, target: number, disabled: boolean) => (
    <Button
      appearance="subtle"
      icon={icon}
      aria-label={label}
      title={label}
      data-action={action}
      disabled={disabled}
      onClick={() => onPage(target)}
    />
  );
  return (
    <nav className={styles.pager} aria-label={t('engine.list.pagination')}>
      <label className={styles.size}>
        <Text size={200}>{t('engine.list.pageSize')}</Text>
        <Select data-action="page-size" value={String(itemsPerPage)} onChange={(_, d) => onPageSize(Number(d.value))}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </Select>
      </label>
      <Text size={200} data-role="range">
        {t('engine.list.range', { from, to, total: capped ? `${total}+` : total })}
      </Text>
      <div className={styles.buttons}>
        {button('first-page', t('engine.list.firstPage'), <ChevronDoubleLeftRegular />, 1, page <= 1)}
        {button('prev-page', t('engine.list.prevPage'), <ChevronLeftRegular />, page - 1, page <= 1)}
        <Text size={200} data-role="page">
          {t('engine.list.pageOf', { page, pages })}
        </Text>
        {button('next-page', t('engine.list.nextPage'), <ChevronRightRegular />, page + 1, page >= pages)}
        {button('last-page', t('engine.list.lastPage'), <ChevronDoubleRightRegular />, pages, page >= pages)}
      </div>
    </nav>
  );
}
