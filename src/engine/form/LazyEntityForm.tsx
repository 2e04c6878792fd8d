/**
 * The engine's form (EntityForm) loaded when it is first drawn: for screens that show a form
 * only now and then — the record page's transition and action dialogs — so that their route
 * does not load rjsf and the form's validator until a person opens one. Screens whose form is
 * the page import EntityForm itself.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { RJSFSchema } from '@rjsf/utils';
import { FormLoading } from './FormLoading.tsx';
import type { EntityFormProps } from './EntityForm.tsx';
import type { FormSchemaSource } from './generated-validators.ts';

let loaded: typeof import('./EntityForm.tsx') | undefined;
const loadForm = () => import('./EntityForm.tsx').then((m) => (loaded = m));
const EntityForm = lazy(() => loadForm().then((m) => ({ default: m.EntityForm })));

/** The schemas whose form and validator are loaded. */
const ready = new WeakSet<object>();

/** Where a dialog's schema is written besides its entity: a screen's record action, a machine's transition. */
export type DialogSchemaSource = Omit<FormSchemaSource, 'entity'>;

/** Loads the form's code and what validates `schema` in a form of `entity` (once per schema). */
async function preloadEntityForm(entity: string, schema: object, from: DialogSchemaSource): Promise<void> {
  if (ready.has(schema)) return;
  try {
    const [, { prepareFormValidator }] = await Promise.all([loadForm(), import('./validator.ts')]);
    await prepareFormValidator(entity, schema as RJSFSchema, from);
  } finally {
    // A chunk that failed to load fails again where the form is drawn, inside the screen's error boundary.
    ready.add(schema);
  }
}

/**
 * Whether the form of `schema` can be drawn at once (its code and validator are in), loading
 * them when not: a dialog shows FormLoading until then, not half its contents. `from` names
 * the definition that holds the schema (a screen's id, a machine's), whose validators were
 * generated at build time: then no JSON Schema compiler loads.
 * @example const formReady = useEntityFormReady(entity, open?.payload, { machine });
 */
export function useEntityFormReady(entity: string, schema: object | undefined, from: DialogSchemaSource = {}): boolean {
  const [, rerender] = useState(0);
  const isReady = !schema || ready.has(schema);
  const { id, machine } = from;
  useEffect(() => {
    if (isReady || !schema) return;
    let live = true;
    preloadEntityForm(entity, schema, { id, machine })
      .catch(() => undefined)
      .then(() => live && rerender((n) => n + 1));
    return () => {
      live = false;
    };
  }, [entity, schema, isReady, id, machine]);
  return isReady;
}

/**
 * EntityForm, with a spinner until its chunk is in (none when useEntityFormReady loaded it).
 * @example <LazyEntityForm entity={id} schema={payload} uiSchema={{}} formData={data} onSubmit={send} formRef={ref} />
 */
export function LazyEntityForm(props: EntityFormProps) {
  // Once the chunk is in, the form is drawn at once (no suspense) with what is around it; chosen
  // once per form, so that it is never swapped (and its state lost) while it is shown.
  const [Loaded] = useState(() => loaded?.EntityForm);
  if (Loaded) return <Loaded {...props} />;
  return (
    <Suspense fallback={<FormLoading />}>
      <EntityForm {...props} />
    </Suspense>
  );
}
