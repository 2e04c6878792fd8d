import { useRef, useState } from 'react';
import { Link, makeStyles, mergeClasses, Spinner, tokens } from '@fluentui/react-components';
import { CheckmarkCircleRegular, ErrorCircleRegular } from '@fluentui/react-icons';
import type { WidgetProps } from '@rjsf/utils';
import { formContextOf, useFieldPath } from '../context.ts';
import { maskDigits } from '../masks.ts';
import { getAtPointer } from '../../../shared/pointer.ts';
import { useTranslator } from '../useTranslator.ts';
import { MaskedInput } from './MaskedInput.tsx';
import { entityScreenPath } from '../../common/routes.ts';

const useStyles = makeStyles({
  hint: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    marginTop: tokens.spacingVerticalXXS,
    fontSize: tokens.fontSizeBase200,
  },
  found: { color: tokens.colorPaletteGreenForeground1 },
  missing: { color: tokens.colorNeutralForeground3 },
  duplicate: { color: tokens.colorPaletteRedForeground1 },
});

type LookupStatus = 'idle' | 'searching' | 'found' | 'notFound' | 'failed' | 'duplicate';

const STIR_LENGTH = 9;
const maskStir = (raw: string) => maskDigits(raw, STIR_LENGTH);
const stirText = (value: unknown): string => (typeof value === 'string' ? value : '');

/** `ui:options.fill` as target sibling → source field of the found record. */
const fillOf = (fill: unknown): Record<string, string> =>
  fill && typeof fill === 'object' && !Array.isArray(fill)
    ? Object.fromEntries(Object.entries(fill).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};

/**
 * Tax ID (STIR): 9 digits. When the ninth digit is typed and `ui:options.lookup` names an
 * entity, that entity is searched by `/stir` and `ui:options.fill` ({sibling: sourceField})
 * copies the found record's fields into the sibling fields of the same object. Where the
 * caller may not read that entity (a visitor without an account), `ui:options.publicLookup`
 * — a public lookup's path taking `stir` — is asked instead, and its first row fills. On a
 * form of the looked-up entity itself (a new record of that registry), a found record is another one with
 * the same STIR: nothing is filled and, beside the field's "already registered", a link opens it.
 */
export function StirWidget(props: WidgetProps) {
  const { options, registry } = props;
  const styles = useStyles();
  const i18n = useTranslator();
  const path = useFieldPath();
  const [status, setStatus] = useState<LookupStatus>('idle');
  const [existing, setExisting] = useState<string | undefined>(undefined);
  const request = useRef(0);
  const lookup = typeof options.lookup === 'string' ? options.lookup : undefined;
  const publicLookup = typeof options.publicLookup === 'string' ? options.publicLookup : undefined;

  const onTyped = (value: string | undefined) => {
    const n = ++request.current;
    if (!lookup || value?.length !== STIR_LENGTH) {
      setStatus('idle');
      return;
    }
    const { dataProvider, setFieldValue, entity, recordId } = formContextOf(registry);
    setStatus('searching');
    const viaPublic = async (): Promise<Record<string, unknown> | null> => {
      if (!publicLookup) return null;
      const reply = (await dataProvider.lookup({ endpoint: publicLookup }, { stir: value })) as {
        list?: Array<Record<string, unknown>>;
      } | null;
      return reply?.list?.[0] ?? null;
    };
    dataProvider
      .findBy(lookup, '/stir', value)
      .then((found) => found ?? viaPublic())
      .then(
        (found) => {
          if (n !== request.current) return;
          if (!found) {
            setStatus('notFound');
            return;
          }
          if (lookup === entity && typeof found.id === 'number' && found.id !== recordId) {
            setExisting(entityScreenPath(entity, ['detail'], found.id));
            setStatus('duplicate');
            return;
          }
          const owner = path.slice(0, -1);
          for (const [target, source] of Object.entries(fillOf(options.fill))) {
            const copied = getAtPointer(found, source.startsWith('/') ? source : `/${source}`);
            if (copied !== undefined && copied !== null) setFieldValue([...owner, target], copied);
          }
          setStatus('found');
        },
        () => {
          if (n === request.current) setStatus('failed');
        },
      );
  };

  return (
    <div>
      <MaskedInput widget={props} mask={maskStir} display={stirText} inputMode="numeric" onTyped={onTyped} />
      {status === 'duplicate' && (
        <div role="status" data-lookup="duplicate" className={mergeClasses(styles.hint, styles.duplicate)}>
          {existing && <Link href={existing}>{i18n.t('fixes.duplicate.open')}</Link>}
        </div>
      )}
      {status !== 'idle' && status !== 'duplicate' && (
        <div
          role="status"
          data-lookup={status}
          className={mergeClasses(styles.hint, status === 'found' ? styles.found : styles.missing)}
        >
          {status === 'searching' && <Spinner size="extra-tiny" />}
          {status === 'found' && <CheckmarkCircleRegular />}
          {(status === 'notFound' || status === 'failed') && <ErrorCircleRegular />}
          {i18n.t(`engine.form.lookup.${status}`)}
        </div>
      )}
    </div>
  );
}
