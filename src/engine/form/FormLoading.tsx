import { PageSpinner } from '../common/primitives.tsx';

/**
 * The spinner in a form's place while its code or validator loads; `data-form-loading` tells
 * tests (and fillForm) that the fields are still to come.
 * @example {ready ? <EntityForm … /> : <FormLoading />}
 */
export function FormLoading() {
  return (
    <div data-form-loading="">
      <PageSpinner />
    </div>
  );
}
