import type { DisplayFormat } from '../../shared/cell-formats.ts';

/** A filter of a dashboard: a reference list, fixed choices or a month; its value goes to every panel that lists it. */
export interface DashboardFilter {
  /** Query parameter name (a grid filter of the source entity, `bucket`, `month`…). */
  name: string;
  titleKey: string;
  /** Offer the items of this reference list (plus "all" unless `required`). */
  reference?: string;
  /** Offer these values. */
  choices?: Array<{ value: string; labelKey: string }>;
  /** A month picker (YYYY-MM); its default is the current month. */
  month?: boolean;
  /** Initial value (a reference id or a choice). */
  default?: string | number;
  /** No "all" entry: a value is always chosen. */
  required?: boolean;
  /** Shown inside this panel (by id) instead of on top, when it concerns only that panel. */
  panel?: string;
}

/** A column of a table panel, or an axis/series field of a chart. */
export interface DashboardField {
  field: string;
  titleKey: string;
  /**
   * A display format (`src/shared/cell-formats.ts`); `link`: the value is a URL, shown as a
   * link named by the column title (e.g. a download); `day`: the day of a date.
   */
  format?: DisplayFormat;
  /** The value is an id of this reference list: show its localized name. */
  reference?: string;
}

/** Where a panel's rows come from: an API call answering `{list: [...]}`. */
export interface DashboardSource {
  endpoint: string;
  method?: 'GET' | 'POST';
  /** Dashboard filters sent as query parameters. */
  filters?: string[];
  /** Fixed query parameters. */
  query?: Record<string, string | number>;
  /** JSON body of a POST (e.g. a list-search payload). */
  body?: Record<string, unknown>;
}

/** One block of a dashboard: a table or a chart over one source. */
export interface DashboardPanel {
  id: string;
  titleKey: string;
  kind: 'table' | 'bar' | 'line';
  source: DashboardSource;
  /** table: the columns. */
  columns?: DashboardField[];
  /** chart: the category axis. */
  x?: DashboardField;
  /** chart: the value axis (one series per field unless `seriesBy`). */
  y?: DashboardField[];
  /** chart: one series per distinct value of this field (e.g. per fuel type). */
  seriesBy?: DashboardField;
}

/** What a `dashboard` screen's options say. */
export interface DashboardOptions {
  filters?: DashboardFilter[];
  panels: DashboardPanel[];
  /** Shown when a panel has no rows. */
  emptyKey?: string;
  /** Shown when a panel's call fails. */
  errorKey?: string;
  /** A back button (history back, else home). */
  back?: boolean;
}
