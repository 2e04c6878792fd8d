/**
 * The error summary of a form after an invalid submit (the GOV.UK Design System's pattern):
 * a box at the top, "There is a problem", one link per error that takes the user to its field.
 * The box takes the focus and scrolls into view, so a phone user and a screen reader hear it.
 */
import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useId, useRef } from 'react';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import { deref } from '../../shared/field-schema.ts';
import { translateTitle, type Translator } from './messages.ts';
import { pointerToPath } from './pointer.ts';
import { useTranslator } from './useTranslator.ts';

const useStyles = makeStyles({
  box: {
    border: `4px solid ${tokens.colorPaletteRedBorder2}`,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    marginBottom: tokens.spacingVerticalL,
    backgroundColor: tokens.colorNeutralBackground1,
    // Clear of the sticky header when scrolled into view.
    scrollMarginTop: '64px',
    ':focus-visible': { outline: `3px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '0' },
    ':focus': { outline: `3px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '0' },
  },
  title: { margin: `0 0 ${tokens.spacingVerticalS}`, fontSize: tokens.fontSizeBase500, lineHeight: '1.3' },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL, display: 'grid', gap: tokens.spacingVerticalXS },
  link: {
    color: tokens.colorPaletteRedForeground1,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: 'anywhere',
    ':hover': { color: tokens.colorPaletteRedForeground2 },
  },
});

/** One line of the summary: the field it is about (a JSON pointer; none for the whole form) and its text. */
export interface SummaryItem {
  pointer?: string;
  text: string;
}

/** The id rjsf gives a field's control (`root_customer_pnfl`): the link's `href`. */
const controlId = (pointer: string): string => ['root', ...pointerToPath(pointer).map(String)].join('_');

const FOCUSABLE = 'input:not([type="hidden"]), textarea, select, button, [tabindex]:not([tabindex="-1"])';

/**
 * Moves to the field at `pointer` inside `container`: its block scrolls into view (label and
 * all) and its first control gets the focus. False when the field is not on the page.
 */
export function focusField(container: ParentNode | null | undefined, pointer: string): boolean {
  const field = container?.querySelector<HTMLElement>(`[data-field="${CSS.escape(pointer)}"]`);
  const control =
    field?.querySelector<HTMLElement>(`#${CSS.escape(controlId(pointer))}`) ??
    field?.querySelector<HTMLElement>(FOCUSABLE);
  if (!field || !control) return false;
  field.scrollIntoView?.({ block: 'center' });
  control.focus({ preventScroll: true });
  return true;
}

/**
 * The summary box. It is shown anew (focused, scrolled to) whenever `attempt` changes: each
 * failed submit, even with the same errors, brings the user back to it.
 * @example {summary && <ErrorSummary items={summary.items} attempt={summary.attempt} onFollow={(p) => focusField(root.current, p)} />}
 */
export function ErrorSummary({
  items,
  attempt,
  onFollow,
}: {
  items: readonly SummaryItem[];
  attempt: number;
  onFollow(pointer: string): void;
}) {
  const s = useStyles();
  const i18n = useTranslator();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt is what moves the focus
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    const top = el.getBoundingClientRect().top + window.scrollY;
    // On a page whose top holds the summary, the page's top (its title too) comes into view;
    // further down, or in a dialog (which scrolls itself, not the page), the summary does.
    if (!el.closest('[role="dialog"]') && top + el.offsetHeight < window.innerHeight) window.scrollTo?.({ top: 0 });
    else el.scrollIntoView?.({ block: 'start' });
  }, [attempt]);
  return (
    <div ref={box} className={s.box} role="alert" aria-labelledby={titleId} tabIndex={-1} data-region="error-summary">
      <h2 id={titleId} className={s.title}>
        {i18n.t('forms.summary.title')}
      </h2>
      <ul className={s.list}>
        {items.map((item, index) =>
          item.pointer !== undefined ? (
            <li key={item.pointer}>
              <a
                className={s.link}
                href={`#${controlId(item.pointer)}`}
                data-error-link={item.pointer}
                onClick={(e) => {
                  e.preventDefault();
                  onFollow(item.pointer!);
                }}
              >
                {item.text}
              </a>
            </li>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines without a field have nothing else to tell them apart
            <li key={index}>{item.text}</li>
          ),
        )}
      </ul>
    </div>
  );
}

/** The title of the field at `pointer`: its `ui:title`, else its schema's title, else its name. */
export function fieldTitle(i18n: Translator, schema: RJSFSchema, ui: UiSchema | undefined, pointer: string): string {
  const root = schema as JSONSchema7;
  let node: JSONSchema7 | undefined = root;
  let uiNode: Record<string, unknown> | undefined = ui as Record<string, unknown> | undefined;
  const path = pointerToPath(pointer).map(String);
  for (const segment of path) {
    const inArray = /^\d+$/.test(segment) && node?.items && !Array.isArray(node.items);
    node = deref(root, inArray ? (node!.items as JSONSchema7) : node?.properties?.[segment]);
    uiNode = (inArray ? uiNode?.items : uiNode?.[segment]) as Record<string, unknown> | undefined;
  }
  const options = uiNode?.['ui:options'] as { title?: string } | undefined;
  const title = (uiNode?.['ui:title'] as string | undefined) ?? options?.title ?? node?.title;
  return translateTitle(i18n, title) || (path.at(-1) ?? '');
}

/** Items in the order their fields stand on the page (fields not on it last), one per field. */
export function orderedItems(container: ParentNode | null | undefined, items: SummaryItem[]): SummaryItem[] {
  const order = new Map<string, number>();
  container?.querySelectorAll<HTMLElement>('[data-field]').forEach((el, i) => {
    const pointer = el.dataset.field!;
    if (!order.has(pointer)) order.set(pointer, i);
  });
  const seen = new Set<string>();
  const unique = items.filter((item) => {
    const key = item.pointer ?? `text:${item.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const rank = (item: SummaryItem) => (item.pointer !== undefined ? (order.get(item.pointer) ?? 1e9) : -1);
  return unique.sort((a, b) => rank(a) - rank(b));
}
