import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { DashboardFilter, DashboardOptions, DashboardPanel, ScreenDefinition } from '../../generated/meta.ts';
import { canOpen } from '../../shared/ability.ts';
import { effectiveValues, periodFilterOf, type FilterValues } from '../../shared/dashboard-query.ts';
import { buildPanelTable, type TableColumn } from '../../shared/dashboard-table.ts';
import { formatCell, type DisplayFormat } from '../../shared/cell-formats.ts';
import { formatDate, referenceLabel, statesKeyOf, tashkentParts, type Translate } from '../../shared/format.ts';
import { parsePeriod, type Period } from '../../shared/periods.ts';
import type { Locale } from '../../shared/locales.ts';
import { ApiError, errorBodySchema } from '../errors.ts';
import { fileReply } from '../reply-schemas.ts';
import type { Actor } from '../auth/access.ts';
import { chartTable, ForwardedReply, panelAnswers } from './dashboard-answers.ts';
import { dashboardWorkbook, type CellContext } from './dashboard-sheet.ts';
import { XLSX_MIME } from './export.ts';

/**
 * `GET /api/dashboards/{screen}/{panel}/export`: one table of a dashboard screen (or a chart's
 * table view) as an .xlsx with the layout the screen shows — title, the filters in words, the
 * header with its column groups, group headings, subtotals, the grand total, the previous
 * period's columns. The query string is the dashboard's filter values as its URL holds them
 * (`period=2025-Q3&regionId=14`), defaults filled in as the screen fills them. The rows come
 * from the panel's own API calls made as the caller (dashboard-answers.ts), so nobody
 * downloads more than the screen would show them.
 */

const NAME = '^[a-z][a-z0-9-]*$';

/** Refuses a caller the permission does not let in: 401 to a visitor, 403 to a user. */
function allow(actor: Actor, permission: string): void {
  const signedIn = actor.id !== null;
  if (canOpen(actor.ability, permission, signedIn)) return;
  throw new ApiError(signedIn ? 403 : 401, signedIn ? 'errors.forbidden' : 'errors.unauthorized');
}

/** The dashboard screen and the panel asked for, or the reason why not (404 / 401 / 403). */
function screenAndPanel(
  screens: ReadonlyMap<string, ScreenDefinition>,
  actor: Actor,
  screenId: string,
  panelId: string,
): { screen: ScreenDefinition; options: DashboardOptions; panel: DashboardPanel } {
  const screen = screens.get(screenId);
  if (!screen || screen.kind !== 'dashboard' || !screen.options)
    throw new ApiError(404, 'export.dashboard.noScreen', { params: { screen: screenId } });
  allow(actor, screen.permission);
  const options = screen.options as unknown as DashboardOptions;
  const panel = options.panels.find((p) => p.id === panelId);
  const exportable = panel && panel.kind !== 'stat' && panel.export !== false && (panel.columns?.length || panel.x);
  if (!panel || !exportable)
    throw new ApiError(404, 'export.dashboard.noPanel', { params: { screenKey: screen.titleKey, panel: panelId } });
  if (panel.permission) allow(actor, panel.permission);
  return { screen, options, panel };
}

/** The filters that change what a panel shows: the period it takes and the filters its source lists. */
const filtersOf = (options: DashboardOptions, panel: DashboardPanel): DashboardFilter[] =>
  (options.filters ?? []).filter(
    (f) =>
      (!f.panel || f.panel === panel.id) &&
      ((f.period && panel.source.period) || (panel.source.filters ?? []).includes(f.name)),
  );

/** The period in words: "July 2025", "Quarter 3, 2025", "2025", "01.07.2025 – 15.08.2025". */
export function periodInWords(period: Period, t: (key: string, params?: Record<string, unknown>) => string): string {
  const year = period.from.slice(0, 4);
  if (period.unit === 'month')
    return t('export.dashboard.period.month', {
      month: t(`export.dashboard.month.${Number(period.from.slice(5, 7))}`),
      year,
    });
  if (period.unit === 'quarter') return t('export.dashboard.period.quarter', { quarter: period.text.slice(-1), year });
  if (period.unit === 'year') return t('export.dashboard.period.year', { year });
  return t('export.dashboard.period.custom', { from: formatDate(period.from), to: formatDate(period.to) });
}

/**
 * Each given filter value must be one the dashboard offers (a period of its units, a month,
 * an item of its reference list, one of its choices): otherwise 400 naming the filter. A value
 * the screen would quietly replace by its default is refused here, since a file says what it holds.
 */
function refuseBadValues(
  filters: readonly DashboardFilter[],
  url: Readonly<Record<string, string | undefined>>,
  hasItem: (kind: string, id: number) => boolean,
): void {
  for (const f of filters) {
    const value = url[f.name];
    if (value === undefined || value === '') continue;
    const period = f.period || f.month ? parsePeriod(value) : undefined;
    const ok = f.period
      ? !!period && f.period.units.includes(period.unit)
      : f.month
        ? period?.unit === 'month'
        : f.reference
          ? /^\d{1,9}$/.test(value) && hasItem(f.reference, Number(value))
          : f.choices
            ? f.choices.some((c) => c.value === value)
            : true;
    if (!ok) throw new ApiError(400, 'export.dashboard.badFilter', { params: { filterKey: f.titleKey, value } });
  }
}

const fileSafe = (s: string): string => s.replace(/[\\/:*?"<>|\r\n]+/g, ' ').trim();

const dashboardExport: FastifyPluginAsync = async (app) => {
  /** The source entity's state labels, for a `status` column (the entity whose base the endpoint is under). */
  const statesKeyFor = (endpoint: string): string | undefined => {
    for (const def of app.definitions.entities.values())
      if (endpoint.startsWith(`/api${def.manifest.base}/`)) return statesKeyOf(def.manifest);
    return undefined;
  };

  app.get<{ Params: { screen: string; panel: string }; Querystring: Record<string, string | undefined> }>(
    '/api/dashboards/:screen/:panel/export',
    {
      schema: {
        tags: ['Dashboards'],
        summary: 'One table of a dashboard (or a chart as its table) as an Excel workbook (.xlsx)',
        description:
          "The query string holds the dashboard's filter values as its URL does (`period=2025-Q3&regionId=14`; an absent one takes the screen's default) and `lang`. The rows come from the panel's own API calls made with the caller's authorization, so the file holds what the screen shows the caller: every row of a paged list up to the list's count cap, the previous period's columns of a `compare` panel, group headings, subtotals and the total.",
        params: {
          type: 'object',
          required: ['screen', 'panel'],
          properties: {
            screen: { type: 'string', pattern: NAME, maxLength: 100, description: 'A dashboard screen id' },
            panel: { type: 'string', pattern: NAME, maxLength: 100, description: 'One of its panels' },
          },
        },
        querystring: {
          type: 'object',
          properties: { lang: { type: 'string', maxLength: 20 } },
          additionalProperties: { type: 'string', maxLength: 200 },
        },
        response: {
          200: fileReply('The workbook (.xlsx), as an attachment'),
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { screen, options, panel } = screenAndPanel(
        app.definitions.screens,
        request.actor,
        request.params.screen,
        request.params.panel,
      );
      const { lang, ...url } = request.query;
      void lang; // read by the http service to pick request.locale
      refuseBadValues(options.filters ?? [], url, (kind, id) => app.references.get(kind, id) !== undefined);
      const values = effectiveValues(options.filters, url, app.config.clock());
      let answers;
      try {
        answers = await panelAnswers(app, request, panel, options.filters, values);
      } catch (error) {
        if (!(error instanceof ForwardedReply)) throw error;
        return reply.code(error.statusCode).send(error.body);
      }
      const chart = panel.kind === 'table' ? undefined : chartTable(panel, answers.rows);
      const table = chart
        ? buildPanelTable({ ...panel, compare: undefined, groupRows: undefined }, { rows: chart.rows }, chart.fields)
        : buildPanelTable(panel, answers);

      const locale = request.locale;
      const t = (key: string, params?: Record<string, unknown>) => app.translator.t(locale, key, params);
      const translate: Translate = (key) => {
        const text = t(key);
        return text && text !== key ? text : undefined;
      };
      const ctx: CellContext = { locale, translate, references: app.references };
      const statesKey = statesKeyFor(panel.source.endpoint);
      if (statesKey) ctx.statesKey = statesKey;
      const shown = (value: unknown, field: { format?: string; reference?: string }): string =>
        value === null || value === undefined || value === ''
          ? '—'
          : formatCell(
              value,
              {
                kind: (field.reference ? 'reference' : (field.format ?? 'text')) as DisplayFormat,
                ...field,
                ...(statesKey ? { statesKey } : {}),
              },
              { locale, translate, reference: (kind, id) => app.references.get(kind, id) },
            );
      const groupField = panel.columns?.find((c) => c.field === panel.groupRows?.field) ?? {
        field: panel.groupRows?.field ?? '',
        titleKey: '',
      };
      const columnTitle = (column: TableColumn): string => {
        const series = chart?.seriesTitles.get(column.key);
        const title =
          series !== undefined || chart?.seriesTitles.has(column.key)
            ? shown(series, panel.seriesBy!)
            : t(column.field.titleKey);
        if (column.role === 'previous') return t('export.dashboard.previous', { title });
        if (column.role === 'change') return t('export.dashboard.change', { title });
        return title;
      };
      const screenTitle = t(screen.titleKey ?? screen.id);
      const filterLine = filtersOf(options, panel)
        .map(
          (f) => `${t(f.titleKey)}: ${valueInWords(f, values, t, locale, (kind, id) => app.references.get(kind, id))}`,
        )
        .join(' · ');
      const buffer = await dashboardWorkbook(
        table,
        {
          sheetName: t(panel.titleKey),
          title: `${screenTitle} — ${t(panel.titleKey)}`,
          filterLine: filterLine || t('export.dashboard.noFilters'),
          columnTitle,
          groupTitle: (key) => t(key),
          heading: (value) => `${t(groupField.titleKey)}: ${shown(value, groupField)}`,
          subtotal: (value) => t('export.dashboard.subtotal', { group: shown(value, groupField) }),
          total: t('export.dashboard.total'),
        },
        ctx,
      );
      // The file is named by what it covers: the period (or month) chosen, else the day it was made.
      const dated = periodFilterOf(options.filters) ?? (options.filters ?? []).find((f) => f.month);
      const name = fileSafe(`${screenTitle} ${(dated && values[dated.name]) || today()}`);
      return reply
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`${name}.xlsx`)}`)
        .header('cache-control', 'no-store')
        .type(XLSX_MIME)
        .send(buffer);
    },
  );
};

/** Today in Tashkent (YYYY-MM-DD), for a file of a dashboard without a period. */
function today(): string {
  const p = tashkentParts(new Date());
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** A filter's value as the reader says it: the period in words, the region's name, the choice's label; "all" when empty. */
function valueInWords(
  f: DashboardFilter,
  values: FilterValues,
  t: (key: string, params?: Record<string, unknown>) => string,
  locale: Locale,
  item: (kind: string, id: number) => Parameters<typeof referenceLabel>[1],
): string {
  const value = values[f.name] ?? '';
  if (!value) return t('export.dashboard.all');
  const period = f.period || f.month ? parsePeriod(value) : undefined;
  if (period) return periodInWords(period, t);
  if (f.reference) return referenceLabel(value, item(f.reference, Number(value)), locale);
  const choice = f.choices?.find((c) => c.value === value);
  return choice ? t(choice.labelKey) : value;
}

export default dashboardExport;
