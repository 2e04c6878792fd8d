// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { manifests, loadEntity } from '../../definitions/client.ts';
import { EntityForm } from './EntityForm.tsx';
import { renderWithProviders } from './testing.tsx';

// Every entity of schemas/ — a new one is covered the moment it exists.
const ids = [...manifests.keys()].sort();

describe.each(ids)('the form of %s', (id) => {
  it.each([false, true])(
    'renders every top-level field with its pointer (read-only: %s) and no React warning',
    async (readOnly) => {
      const { schema, ui } = await loadEntity(id);
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const { container } = renderWithProviders(
        <EntityForm
          entity={id}
          schema={schema}
          uiSchema={ui?.uiSchema ?? {}}
          formData={{}}
          readOnly={readOnly}
          onSubmit={() => undefined}
        />,
      );
      expect(container.querySelector(`[data-entity="${id}"]`)).not.toBeNull();
      for (const name of Object.keys(schema.properties ?? {})) {
        expect(container.querySelector(`[data-field="/${name}"]`), `/${name}`).not.toBeNull();
      }
      expect(errors.mock.calls.map((c) => String(c[0]).slice(0, 300))).toEqual([]);
      errors.mockRestore();
    },
  );
});
