import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { JSONSchema7 } from 'json-schema';
import type { EntityManifest } from '../../generated/meta.ts';
import { recordTitle } from '../../shared/record-title.ts';

/**
 * The name of a record in the user's language (the manifest's `titleFields`, else its
 * `labelField`; shared/record-title.ts), or '' while it loads or when it has none.
 */
export function useRecordTitle(
  definition: { manifest: EntityManifest; schema: unknown } | undefined,
  record: Record<string, unknown> | undefined,
): string {
  const { t, i18n } = useTranslation();
  if (!definition || !record) return '';
  return recordTitle(definition.manifest, definition.schema as JSONSchema7, record, {
    t: (key) => t(key),
    exists: (key) => i18n.exists(key),
  });
}

/**
 * Titles the browser tab from the parts given (most specific first) and the portal's short
 * name, once there are any; the screen's own title (app/shell/ScreenRoute, a layout effect)
 * stays until then.
 */
export function useDocumentTitle(parts: ReadonlyArray<string | undefined>): void {
  const { t } = useTranslation();
  const shown = parts.filter((p): p is string => Boolean(p));
  const text = shown.length ? [...shown, t('app.shortTitle')].join(' — ') : '';
  useEffect(() => {
    if (text) document.title = text;
  }, [text]);
}
