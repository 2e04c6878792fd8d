// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderEntityForm } from '../testing.tsx';
import { answerSchema, answerUiSchema, type Question } from '../../../shared/questionnaire.ts';

// A questionnaire's answer form, as the questionnaire screen builds it from its questions.
const questions: Question[] = [
  {
    key: 'q1',
    text: 'Which services did you use?',
    type: 'multiple',
    required: true,
    options: [{ text: 'Appeals' }, { text: 'Fair prices' }, { text: 'Open data' }],
  },
  { key: 'q2', text: 'Rate the portal', type: 'rating', required: false },
];

describe('checkboxes widget (several choices)', () => {
  it('names each box by its option, keeps the options order in the value, and refuses none when required', async () => {
    const onChange = vi.fn();
    const onSubmit = vi.fn();
    const { handle } = renderEntityForm({
      schema: answerSchema(questions),
      uiSchema: answerUiSchema(questions),
      onChange,
      onSubmit,
    });
    const group = screen.getByRole('group', { name: /Which services did you use\?/ });
    expect(group).toBeTruthy();
    const open = screen.getByRole('checkbox', { name: 'Open data' });
    const appeals = screen.getByRole('checkbox', { name: 'Appeals' });
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
    // Ratings are a row of five radios.
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['1', '2', '3', '4', '5']);

    act(() => handle.current!.submit());
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.click(open);
    fireEvent.click(appeals);
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ q1: [0, 2] }));
    fireEvent.click(open);
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ q1: [0] }));
    act(() => handle.current!.submit());
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ q1: [0] }));
  });
});
