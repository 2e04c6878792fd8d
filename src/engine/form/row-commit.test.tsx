// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, waitFor } from '@testing-library/react';
import { withTheme } from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import { portalFormTheme } from './theme.ts';
import { portalValidator } from './validator.ts';
import { createFakeDataProvider, renderWithProviders } from './testing.tsx';
import { LONG_LIST } from './row-commit.ts';

const ThemedForm = withTheme(portalFormTheme);

const schema: RJSFSchema = {
  type: 'object',
  properties: {
    rows: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, tonnes: { type: 'number' } },
      },
    },
  },
};

type Rows = { rows: Array<{ name?: string; tonnes?: number }> };

function renderRows(count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({ name: `row ${i}`, tonnes: i }));
  const changes: Rows[] = [];
  const submits: Rows[] = [];
  const formContext = {
    entity: 'sample',
    dataProvider: createFakeDataProvider(),
    locale: 'en',
    setFieldValue: () => {},
  };
  const { container } = renderWithProviders(
    <ThemedForm
      schema={schema}
      formData={{ rows }}
      formContext={formContext}
      validator={portalValidator}
      liveValidate="onChange"
      onChange={(e: IChangeEvent) => changes.push(structuredClone(e.formData) as Rows)}
      onSubmit={(e: IChangeEvent) => submits.push(structuredClone(e.formData) as Rows)}
    />,
  );
  const input = (row: number, field: string) =>
    container.querySelector<HTMLInputElement>(`#root_rows_${row}_${field}`)!;
  return { container, changes, submits, input };
}

describe('typing in a long list', () => {
  it(`shows each key at once and hands the text to the form when the field is left (${LONG_LIST}+ rows)`, () => {
    const { changes, input } = renderRows(LONG_LIST + 10);
    fireEvent.change(input(10, 'name'), { target: { value: 'row 10 changed' } });
    expect(input(10, 'name').value).toBe('row 10 changed');
    expect(changes).toEqual([]);
    fireEvent.blur(input(10, 'name'));
    expect(changes.at(-1)?.rows[10]).toEqual({ name: 'row 10 changed', tonnes: 10 });
    expect(input(10, 'name').value).toBe('row 10 changed');
  });

  it('hands a number over on Enter, before the form is submitted', () => {
    const { changes, input } = renderRows(LONG_LIST);
    fireEvent.change(input(3, 'tonnes'), { target: { value: '42.5' } });
    expect(changes).toEqual([]);
    fireEvent.keyDown(input(3, 'tonnes'), { key: 'Enter' });
    expect(changes.at(-1)?.rows[3]).toEqual({ name: 'row 3', tonnes: 42.5 });
    expect(input(3, 'tonnes').value).toBe('42.5');
  });

  it('hands the text over when typing pauses, and a submit reads it', async () => {
    const { container, changes, submits, input } = renderRows(LONG_LIST + 1);
    fireEvent.change(input(0, 'name'), { target: { value: 'first' } });
    fireEvent.change(input(0, 'name'), { target: { value: 'first row' } });
    await waitFor(() => expect(changes.at(-1)?.rows[0]?.name).toBe('first row'));
    // Only the last text was handed over: one change for the pause.
    expect(changes).toHaveLength(1);
    fireEvent.change(input(1, 'name'), { target: { value: 'second row' } });
    act(() => {
      fireEvent.blur(input(1, 'name'));
      fireEvent.submit(container.querySelector('form')!);
    });
    expect(submits.at(-1)?.rows.slice(0, 2)).toEqual([
      { name: 'first row', tonnes: 0 },
      { name: 'second row', tonnes: 1 },
    ]);
  });

  it(`takes each key at once in a shorter list (under ${LONG_LIST} rows)`, () => {
    const { changes, input } = renderRows(LONG_LIST - 1);
    fireEvent.change(input(5, 'name'), { target: { value: 'row 5 changed' } });
    expect(changes.at(-1)?.rows[5]).toEqual({ name: 'row 5 changed', tonnes: 5 });
    fireEvent.change(input(5, 'tonnes'), { target: { value: '7' } });
    expect(changes.at(-1)?.rows[5]).toEqual({ name: 'row 5 changed', tonnes: 7 });
  });

  it('drops nothing typed before a field is left', () => {
    vi.useFakeTimers();
    try {
      const { changes, input } = renderRows(LONG_LIST);
      for (const text of ['a', 'ab', 'abc']) fireEvent.change(input(20, 'name'), { target: { value: text } });
      expect(changes).toEqual([]);
      act(() => vi.advanceTimersByTime(1000));
      expect(changes.map((c) => c.rows[20]?.name)).toEqual(['abc']);
    } finally {
      vi.useRealTimers();
    }
  });
});
