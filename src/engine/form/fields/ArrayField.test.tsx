// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { fireEvent } from '@testing-library/react';
import { withTheme } from '@rjsf/core';
import type { ArrayFieldItemTemplateProps, RJSFSchema, WidgetProps } from '@rjsf/utils';
import { ArrayFieldItemTemplate } from '../templates/ArrayFieldTemplate.tsx';
import { portalFormTheme } from '../theme.ts';
import { portalValidator } from '../validator.ts';
import { createFakeDataProvider, renderWithProviders } from '../testing.tsx';

const ThemedForm = withTheme(portalFormTheme);

const renders = new Map<string, number>();
function CountingWidget({ id, value, onChange }: WidgetProps) {
  renders.set(id, (renders.get(id) ?? 0) + 1);
  return <input id={id} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />;
}

const rowRenders: number[] = [];
function CountingRow(props: ArrayFieldItemTemplateProps) {
  rowRenders.push(props.index);
  return <ArrayFieldItemTemplate {...props} />;
}

const schema: RJSFSchema = {
  type: 'object',
  properties: {
    rows: {
      type: 'array',
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2 } } },
    },
  },
};

describe('ArrayField', () => {
  it('re-renders only the row that changed, even with live validation errors in other rows', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ name: i % 2 ? `row ${i}` : 'x' }));
    const formContext = {
      entity: 'sample',
      dataProvider: createFakeDataProvider(),
      locale: 'en',
      setFieldValue: () => undefined,
    };
    const { container } = renderWithProviders(
      <ThemedForm
        schema={schema}
        uiSchema={{ rows: { items: { name: { 'ui:widget': 'counter' } } } }}
        widgets={{ counter: CountingWidget }}
        templates={{ ArrayFieldItemTemplate: CountingRow }}
        formData={{ rows }}
        formContext={formContext}
        validator={portalValidator}
        liveValidate="onChange"
      />,
    );
    const input = container.querySelector<HTMLInputElement>('#root_rows_10_name')!;
    fireEvent.change(input, { target: { value: 'changed' } });
    renders.clear();
    rowRenders.length = 0;
    fireEvent.change(input, { target: { value: 'changed again' } });
    expect([...renders.keys()]).toEqual(['root_rows_10_name']);
    expect(rowRenders).toEqual([10]);
  });
});
