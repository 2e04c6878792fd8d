import { useDownloadClick } from '../common/useDownload.ts';
import { Link, makeStyles, tokens } from '@fluentui/react-components';
import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import type { ReferenceItem } from '../../client/data-provider.ts';
import {
  useDataProvider,
  useGetFileInfo,
  useGetOne,
  useGetReferences,
  useGetStaffUsers,
} from '../../client/react/hooks.ts';
import { manifests } from '../../definitions/client.ts';
import { Link as RouterLink, useInRouterContext } from 'react-router-dom';
import { useAbility } from '../../client/react/ability.tsx';
import { entityScreenPath } from '../common/routes.ts';
import { formatCell } from '../../shared/cell-formats.ts';
import type { ColumnFormat, FormatContext, Translate } from '../../shared/format.ts';
import { pickLocale } from '../../shared/locales.ts';
import { valueAt } from '../../shared/pointer.ts';
import { FileTypeIcon } from '../common/FileTypeIcon.tsx';
import { VideoPlayer } from './VideoPlayer.tsx';
import { useFileSize } from '../common/useFileSize.ts';
import { fileIconKind } from '../form/files.ts';
import { isEmptyValue, type ReadField } from './read-view.ts';
import { PdfPreviewButton } from '../documents/PdfPreview.tsx';

const useStyles = makeStyles({
  files: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  file: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  icon: { fontSize: '20px', flexShrink: 0, color: tokens.colorBrandForeground1 },
  quiet: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, flexShrink: 0 },
  multiline: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  tableWrap: { overflowX: 'auto', maxWidth: '100%' },
  table: {
    borderCollapse: 'collapse',
    fontSize: tokens.fontSizeBase200,
    // Words stay whole: a narrow screen scrolls the table, not the letters of its headers.
    overflowWrap: 'normal',
    '& th, & td': {
      minWidth: '6em',
      maxWidth: '20em',
      border: `1px solid ${tokens.colorNeutralStroke2}`,
      padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
      textAlign: 'left',
      verticalAlign: 'top',
    },
    '& th': { backgroundColor: tokens.colorNeutralBackground2, fontWeight: tokens.fontWeightSemibold },
  },
});

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What drawing a value needs besides the value: the list's format context and staff names. */
export interface ReadTools {
  format: FormatContext;
  /** A staff user's name, once the directory answered. */
  staffName(id: number): string | undefined;
}

/** The reference lists the fields name (table columns too). */
function referenceKinds(fields: readonly ReadField[]): string[] {
  const kinds = fields.flatMap((f) => [f.format?.reference, ...referenceKinds(f.columns ?? [])]);
  return [...new Set(kinds.filter((k): k is string => Boolean(k)))];
}

/**
 * The formatting tools of a record page: the reference lists its fields name (shared with forms
 * and grids through the same query keys) and the staff users it mentions (`staffIds`, one request).
 */
export function useReadTools(fields: readonly ReadField[], staffIds: readonly number[]): ReadTools {
  const { t, i18n } = useTranslation();
  const kinds = referenceKinds(fields);
  const references = useGetReferences(kinds);
  const staff = useGetStaffUsers(staffIds);
  const translate = useMemo<Translate>(() => (key) => (i18n.exists(key) ? t(key) : undefined), [t, i18n]);
  const byKind = new Map<string, Map<number, ReferenceItem>>(
    kinds.map((kind, i) => [kind, new Map((references[i]?.data ?? []).map((item) => [item.id, item]))]),
  );
  const names = new Map((staff.data ?? []).map((u) => [u.id, u.name]));
  return {
    format: { locale: pickLocale(i18n.language), translate, reference: (kind, id) => byKind.get(kind)?.get(id) },
    staffName: (id) => names.get(id),
  };
}

/** A value as the list shows it: '' for nothing. */
export const formattedText = (value: unknown, format: ColumnFormat | undefined, tools: ReadTools): string =>
  formatCell(value, format ?? ({ kind: 'text' } as ColumnFormat), tools.format);

/** The files of a field as download links by name, with their sizes. */
export function FileLinks({ ids }: { ids: string[] }) {
  const s = useStyles();
  const dp = useDataProvider();
  const onDownload = useDownloadClick();
  const info = useGetFileInfo(ids);
  const size = useFileSize();
  return (
    <ul className={s.files}>
      {ids.map((id) => {
        const file = info.data?.find((f) => f.id === id);
        const name = file?.name ?? id;
        const kind = fileIconKind(name, file?.mime);
        return (
          <li key={id} className={s.file} data-file={id} data-kind={kind}>
            <span className={s.icon} aria-hidden>
              <FileTypeIcon kind={kind} />
            </span>
            <Link href={dp.fileUrl(id)} download={name} onClick={onDownload}>
              {name}
            </Link>
            {file && <span className={s.quiet}>{size(file.size)}</span>}
            {file?.mime.startsWith('video/') && <VideoPlayer url={dp.fileUrl(id)} name={name} />}
            {file?.mime === 'application/pdf' && <PdfPreviewButton file={{ id, name }} />}
          </li>
        );
      })}
    </ul>
  );
}

/** A record of another entity by its label field, else its number. */
function EntityRefLabel({ entity, id }: { entity: string; id: number }) {
  const other = useGetOne(entity, id, { staleTime: 60_000 });
  const ability = useAbility();
  const routed = useInRouterContext();
  const field = manifests.get(entity)?.labelField;
  const label = field && other.data ? valueAt(other.data, field) : undefined;
  const text = isEmptyValue(label) ? `#${id}` : String(label);
  // The other record's page, when the reader may open one: a link (a consolidated report's sources).
  const path = routed ? entityScreenPath(entity, ['detail'], id, ability) : undefined;
  return path ? (
    <RouterLink to={path} data-entity-ref={entity}>
      {text}
    </RouterLink>
  ) : (
    <>{text}</>
  );
}

/** A list of objects as a small table: one column per item field, each cell formatted. */
function ItemsTable({ field, items, tools }: { field: ReadField; items: unknown[]; tools: ReadTools }) {
  const s = useStyles();
  const { t } = useTranslation();
  const columns = (field.columns ?? []).filter((c) => items.some((item) => !isEmptyValue(valueAt(item, c.pointer))));
  return (
    <div className={s.tableWrap}>
      <table className={s.table}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.pointer} scope="col">
                {c.titleKey ? t(c.titleKey) : c.pointer.slice(1)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item, i) => (
            // Items have no ids: their place is who they are.
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are never reordered here
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.pointer}>
                  <ReadValue field={c} value={valueAt(item, c.pointer)} tools={tools} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const ignore = () => undefined;

/**
 * A self-reading widget by name. The widgets (and @rjsf/utils with them) load when the first
 * such field is drawn: few records have one, and the record page's route stays without them.
 */
const SelfReadingWidget = lazy(() =>
  import('../form/widgets/index.ts').then(({ portalWidgets }) => ({
    default: function SelfReadingWidget({ widget, ...props }: WidgetProps & { widget: string }) {
      const Widget = portalWidgets[widget] as ComponentType<WidgetProps>;
      return <Widget {...(props as WidgetProps)} />;
    },
  })),
);

/**
 * A field whose widget draws its value read-only itself (selfReadingWidgetNames): the widget
 * with `readonly`, outside any form — it needs only its value, options and an id.
 */
function WidgetValue({ field, value }: { field: ReadField; value: unknown }) {
  const props = {
    id: `read${field.pointer.replace(/\//g, '_')}`,
    name: field.pointer.slice(1),
    value,
    options: field.options ?? {},
    readonly: true,
    disabled: false,
    required: false,
    autofocus: false,
    label: '',
    schema: {},
    uiSchema: {},
    rawErrors: [],
    onChange: ignore,
    onBlur: ignore,
    onFocus: ignore,
  } as unknown as WidgetProps;
  return (
    <Suspense fallback={null}>
      <SelfReadingWidget widget={field.widget!} {...props} />
    </Suspense>
  );
}

/**
 * One field's value, read-only, as the list formats it: dates DD.MM.YYYY (Tashkent), choices
 * and reference names in the current language, yes/no, money, staff users by name, records of
 * other entities by their label, files as download links, lists of objects as small tables.
 */
export function ReadValue({ field, value, tools }: { field: ReadField; value: unknown; tools: ReadTools }) {
  const s = useStyles();
  if (isEmptyValue(value)) return null;
  const list = Array.isArray(value) ? value : [value];
  switch (field.kind) {
    case 'files':
      return <FileLinks ids={list.filter((v): v is string => typeof v === 'string')} />;
    case 'staffUser':
      return <>{list.map((id) => tools.staffName(Number(id)) ?? `#${String(id)}`).join(', ')}</>;
    case 'entityRef':
      return (
        <>
          {list.map((id, i) => (
            <span key={String(id)}>
              {i > 0 && ', '}
              {typeof id === 'number' ? <EntityRefLabel entity={field.entity!} id={id} /> : String(id)}
            </span>
          ))}
        </>
      );
    case 'table':
      return <ItemsTable field={field} items={list} tools={tools} />;
    case 'widget':
      return <WidgetValue field={field} value={value} />;
    default: {
      // An object drawn by one widget (a point on the map): its parts, not its JSON.
      const text = isPlainObject(value)
        ? Object.values(value)
            .filter((v) => !isEmptyValue(v))
            .map(String)
            .join(', ')
        : formattedText(value, field.format, tools);
      return field.multiline ? <span className={s.multiline}>{text}</span> : <>{text}</>;
    }
  }
}
