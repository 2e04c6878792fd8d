/**
 * An agency's answer as the method's result schema describes it: `record` — a labelled
 * description list of the schema's fields (nested objects flattened, a list of objects as a
 * small table); `table` — the rows at the `rows` pointer as a table whose columns are the rows'
 * item properties (cards on a phone), with the answer's other fields above it. Values are shown
 * as officials read them (integration-model.ts `displayValue`).
 */
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Caption1,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
} from '@fluentui/react-components';
import type { IntegrationMethodInfo } from '../../client/data-provider.ts';
import type { Translate } from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import { getAtPointer } from '../../shared/pointer.ts';
import { useMediaQuery } from '../common/useMediaQuery.ts';
import {
  displayValue,
  isRowList,
  resultFields,
  resultTable,
  type DisplayContext,
  type ResultField,
} from './integration-model.ts';
import { Facts, useIntegrationStyles } from './parts.tsx';

/** As the list screen's: below this width rows are cards. */
const NARROW_QUERY = '(max-width: 640px)';

const useStyles = makeStyles({
  table: { minWidth: '640px' },
});

function useDisplayContext(): DisplayContext {
  const { t, i18n } = useTranslation();
  return useMemo(() => {
    const translate: Translate = (key) => (i18n.exists(key) ? t(key) : undefined);
    return { locale: pickLocale(i18n.language), translate };
  }, [t, i18n, i18n.language]);
}

/** The fields of an object with a value, as facts; a list of objects among them as a small table. */
function FieldFacts({ fields, data, ctx }: { fields: ResultField[]; data: unknown; ctx: DisplayContext }) {
  const items = fields.flatMap((f): Array<{ pointer: string; title: string; value: ReactNode }> => {
    const value = getAtPointer(data, f.pointer);
    if (isRowList(value)) {
      const columns = resultFields(f.schema.items);
      return [{ pointer: f.pointer, title: f.title, value: <RowsTable rows={value} columns={columns} ctx={ctx} /> }];
    }
    const text = displayValue(value, f.schema, ctx);
    return text ? [{ pointer: f.pointer, title: f.title, value: text }] : [];
  });
  return <Facts items={items} />;
}

/** Rows under their columns: a table, or one card per row on a phone. */
function RowsTable({
  rows,
  columns,
  ctx,
  label,
}: {
  rows: ReadonlyArray<Record<string, unknown>>;
  columns: ResultField[];
  ctx: DisplayContext;
  label?: string;
}) {
  const s = useIntegrationStyles();
  const own = useStyles();
  const narrow = useMediaQuery(NARROW_QUERY);
  if (narrow)
    return (
      <ul className={s.cards} aria-label={label}>
        {rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an answer's rows have no id of their own
          <li key={i} className={s.card} data-row={i}>
            <Facts
              items={columns.flatMap((c) => {
                const text = displayValue(getAtPointer(row, c.pointer), c.schema, ctx);
                return text ? [{ pointer: c.pointer, title: c.title, value: text }] : [];
              })}
            />
          </li>
        ))}
      </ul>
    );
  return (
    <div className={s.scroll}>
      <Table className={own.table} size="small" aria-label={label}>
        <TableHeader>
          <TableRow>
            {columns.map((c) => (
              <TableHeaderCell key={c.pointer} data-column={c.pointer}>
                {c.title}
              </TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an answer's rows have no id of their own
            <TableRow key={i} data-row={i}>
              {columns.map((c) => (
                <TableCell key={c.pointer} data-cell={c.pointer}>
                  {displayValue(getAtPointer(row, c.pointer), c.schema, ctx)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** The answer of a method that found something. */
export function ResultView({ method, result }: { method: IntegrationMethodInfo; result: Record<string, unknown> }) {
  const { t } = useTranslation();
  const s = useIntegrationStyles();
  const ctx = useDisplayContext();
  if (method.result.view === 'table') {
    const table = resultTable(method.result, result);
    return (
      <div className={s.root} data-view="table">
        {table.facts.length > 0 && <FieldFacts fields={table.facts} data={result} ctx={ctx} />}
        <Caption1 data-state="row-count">{t('integration.agency.rows', { count: table.rows.length })}</Caption1>
        {table.rows.length > 0 && (
          <RowsTable rows={table.rows} columns={table.columns} ctx={ctx} label={method.title} />
        )}
      </div>
    );
  }
  return (
    <div data-view="record">
      <FieldFacts fields={resultFields(method.result.schema)} data={result} ctx={ctx} />
    </div>
  );
}
