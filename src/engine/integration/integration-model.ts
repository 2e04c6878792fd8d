/**
 * Pure functions of the integration pages (screen kind `integration`): the query form of a
 * method (its parameters and, for personal data, the purpose) as one rjsf schema whose JSON
 * pointers are the call body's, so a 400's `/params/<name>` and `/purpose` land on their fields;
 * the answer as labelled facts or table columns from the method's result schema; values as an
 * official reads them; the audit's filters in the address. Nothing here names an agency.
 */
import type { JSONSchema7 } from 'json-schema';
import type { IntegrationAuditFilters, IntegrationMethodInfo, IntegrationOutcome } from '../../client/data-provider.ts';
import { formatBoolean, formatDate, formatDateTime, formatNumber, type Translate } from '../../shared/format.ts';
import type { Locale } from '../../shared/locales.ts';
import { getAtPointer, pointerSegments, toPointer } from '../../shared/pointer.ts';

/** The least a purpose says (the server's rule too). */
export const MIN_PURPOSE = 10;
/** The most a purpose holds. */
export const MAX_PURPOSE = 500;
/** The i18n key that titles the purpose field. */
export const PURPOSE_TITLE_KEY = 'integration.agency.purpose';

type Schema = JSONSchema7;

/**
 * The query form of a method: `params` (the method's parameter schema, untitled — the method
 * is the page's heading) and, for a personal-data method, a required `purpose` of at least
 * {@link MIN_PURPOSE} characters.
 * @example queryFormSchema({ personalData: true, params: { type: 'object', properties: { pinfl: … } } })
 * // { type: 'object', required: ['params', 'purpose'], properties: { params: {…}, purpose: {…} } }
 */
export function queryFormSchema(method: Pick<IntegrationMethodInfo, 'params' | 'personalData'>): Schema {
  const params = method.params as Schema;
  return {
    type: 'object',
    required: method.personalData ? ['params', 'purpose'] : ['params'],
    properties: {
      params: { ...params, title: undefined },
      ...(method.personalData
        ? {
            purpose: {
              type: 'string',
              title: PURPOSE_TITLE_KEY,
              minLength: MIN_PURPOSE,
              maxLength: MAX_PURPOSE,
            },
          }
        : {}),
    },
  };
}

/** The form's ui: the parameters without a group caption, the purpose a text area with a hint. */
export function queryUiSchema(): Record<string, unknown> {
  return {
    params: { 'ui:options': { label: false } },
    purpose: { 'ui:widget': 'textarea', 'ui:options': { rows: 3, description: 'integration.agency.purposeHint' } },
  };
}

/** One labelled value of an answer: its pointer in the answer, its title, its schema. */
export interface ResultField {
  pointer: string;
  title: string;
  schema: Schema;
}

const asSchema = (node: unknown): Schema => (node && typeof node === 'object' ? (node as Schema) : {});
const isObjectSchema = (s: Schema): boolean =>
  s.type === 'object' || (s.type === undefined && s.properties !== undefined);

/**
 * The fields of an object schema in the schema's order, nested objects flattened ("Address ›
 * Region"); an array stays one field (shown as a list or a small table). Untitled fields are
 * titled by their name.
 * @example resultFields({ properties: { a: { title: 'A' }, b: { properties: { c: { title: 'C' } }, title: 'B' } } })
 * // [{ pointer: '/a', title: 'A' }, { pointer: '/b/c', title: 'B › C' }]
 */
export function resultFields(schema: unknown, base: string[] = [], titles: string[] = []): ResultField[] {
  const properties = asSchema(schema).properties ?? {};
  return Object.entries(properties).flatMap(([name, node]) => {
    const s = asSchema(node);
    const title = typeof s.title === 'string' && s.title ? s.title : name;
    if (isObjectSchema(s)) return resultFields(s, [...base, name], [...titles, title]);
    return [{ pointer: toPointer([...base, name]), title: [...titles, title].join(' › '), schema: s }];
  });
}

/** The schema at a pointer of an answer (through `properties`; an array's `items` where the pointer is numeric). */
export function schemaAt(schema: unknown, pointer: string): Schema {
  let node = asSchema(schema);
  for (const segment of pointerSegments(pointer)) {
    if (node.type === 'array' || node.items) node = asSchema(node.items);
    else node = asSchema(node.properties?.[segment]);
  }
  return node;
}

/** A table answer: its rows, their columns, and the answer's other fields (a total, a date). */
export interface ResultTable {
  rows: Array<Record<string, unknown>>;
  columns: ResultField[];
  facts: ResultField[];
}

/**
 * A table answer from the method's `result` and the answer: the rows at `result.rows` (the
 * answer itself when it is an array or no pointer is given and the answer has one array), the
 * columns from the rows' item schema, and the answer's other fields as facts.
 * @example resultTable({ view: 'table', rows: '/items', schema }, { total: 2, items: [{…}, {…}] })
 */
export function resultTable(result: IntegrationMethodInfo['result'], answer: unknown): ResultTable {
  const rowsPointer = result.rows ?? '';
  const found = rowsPointer ? getAtPointer(answer, rowsPointer) : answer;
  const rows = (Array.isArray(found) ? found : []).filter(
    (r): r is Record<string, unknown> => Boolean(r) && typeof r === 'object',
  );
  const arraySchema = rowsPointer ? schemaAt(result.schema, rowsPointer) : asSchema(result.schema);
  const columns = resultFields(asSchema(arraySchema.items ?? arraySchema));
  const facts = rowsPointer
    ? resultFields(result.schema).filter((f) => f.pointer !== rowsPointer && !f.pointer.startsWith(`${rowsPointer}/`))
    : [];
  return { rows, columns, facts };
}

/** What {@link displayValue} needs of the page: the language and its texts. */
export interface DisplayContext {
  locale: Locale;
  translate: Translate;
}

/**
 * A value as an official reads it: dates DD.MM.YYYY, moments in Tashkent time, numbers grouped,
 * yes/no, a list joined by commas, an object as "name: value" pairs; nothing for an empty value.
 * @example displayValue('2015-03-12', { type: 'string', format: 'date' }, ctx) // '12.03.2015'
 */
export function displayValue(value: unknown, schema: Schema, ctx: DisplayContext): string {
  if (value === null || value === undefined || value === '') return '';
  if (schema.format === 'date') return formatDate(value) || String(value);
  if (schema.format === 'date-time') return formatDateTime(value) || String(value);
  if (typeof value === 'boolean') return formatBoolean(value, ctx.translate);
  if (typeof value === 'number') return formatNumber(value, ctx.locale);
  if (Array.isArray(value))
    return value
      .map((v) => displayValue(v, asSchema(schema.items), ctx))
      .filter(Boolean)
      .join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => {
        const s = asSchema(schema.properties?.[k]);
        const text = displayValue(v, s, ctx);
        return text ? `${typeof s.title === 'string' ? s.title : k}: ${text}` : '';
      })
      .filter(Boolean)
      .join('; ');
  return String(value);
}

/** An array of objects is shown as a small table of its own, not as one line. */
export const isRowList = (value: unknown): value is Array<Record<string, unknown>> =>
  Array.isArray(value) && value.length > 0 && value.every((v) => v !== null && typeof v === 'object');

/** How a call ended, in the audit's order. */
export const OUTCOMES: readonly IntegrationOutcome[] = ['ok', 'notFound', 'refused', 'failed', 'unavailable'];

/** The audit's filters in the address (`?from=&to=&agency=&method=&user=&outcome=&personalData=&page=`). */
export interface AuditState {
  filters: IntegrationAuditFilters;
  /** From 0. */
  page: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The audit's state from the address: unknown or malformed values are dropped.
 * @example readAuditState(new URLSearchParams('agency=a&personalData=true&page=2')) // { filters: { agency: 'a', personalData: true }, page: 2 }
 */
export function readAuditState(search: URLSearchParams): AuditState {
  const filters: IntegrationAuditFilters = {};
  for (const key of ['from', 'to'] as const) {
    const v = search.get(key);
    if (v && DAY.test(v)) filters[key] = v;
  }
  for (const key of ['agency', 'method', 'user'] as const) {
    const v = search.get(key)?.trim();
    if (v) filters[key] = v.slice(0, 100);
  }
  const outcome = search.get('outcome');
  if (outcome && (OUTCOMES as readonly string[]).includes(outcome)) filters.outcome = outcome as IntegrationOutcome;
  const personal = search.get('personalData');
  if (personal === 'true' || personal === 'false') filters.personalData = personal === 'true';
  const page = Number(search.get('page'));
  return { filters, page: Number.isInteger(page) && page > 0 ? page : 0 };
}

/**
 * The address of an audit state (empty values and page 0 left out).
 * @example writeAuditState({ filters: { outcome: 'ok' }, page: 0 }).toString() // 'outcome=ok'
 */
export function writeAuditState(state: AuditState): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(state.filters))
    if (value !== undefined && value !== '') out.set(key, String(value));
  if (state.page > 0) out.set('page', String(state.page));
  return out;
}

/** A day range whose start is after its end: it could only find nothing, so it is not sent. */
export const isReversed = (filters: IntegrationAuditFilters): boolean =>
  Boolean(filters.from && filters.to && filters.from > filters.to);

/** The parameters of an audit row as one line: `name=value, …` (masked values as the server keeps them). */
export const paramsLine = (params: Readonly<Record<string, string>>): string =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
