/**
 * The engine's form (EntityForm) loaded when it is first drawn: for screens that show a form
 * only now and then — the record page's transition and action dialogs — so that their route
 * does not load rjsf and the form's validator until a person opens one. Screens whose form is
 * the page import EntityForm itself.
 */
import { lazy, Suspense } from 'react';
import { PageSpinner } from '../common/primitives.tsx';
import type { EntityFormProps } from './EntityForm.tsx';

const EntityForm = lazy(() => import('./EntityForm.tsx').then((m) => ({ default: m.EntityForm })));

/**
 * EntityForm, with a spinner until its chunk is in.
 * @example <LazyEntityForm entity={id} schema={payload} uiSchema={{}} formData={data} onSubmit={send} formRef={ref} />
 */
export function LazyEntityForm(props: EntityFormProps) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <EntityForm {...props} />
    </Suspense>
  );
}
