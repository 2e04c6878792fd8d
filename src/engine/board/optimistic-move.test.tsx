// @vitest-environment happy-dom
/**
 * The board's optimistic move (useMoveRecord with the board's `moved`): a card shows in its new
 * column at once; when the server answers 409 it goes back where it was, the conflict is
 * reported (the board says someone changed it) and the list is read again; a move the server
 * accepts stays.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { createFakeDataProvider, renderWithProviders } from '../form/testing.tsx';
import type { StoredRecord } from '../../client/data-provider.ts';
import { HttpError } from '../../client/http.ts';
import { queryKeys } from '../../client/query-keys.ts';
import { useGetEvery, useMoveRecord } from '../../client/react/hooks.ts';
import { byGroup, moved, type ListData } from './board-data.ts';

const f = { position: '/position', group: '/taskId' };
const card = (id: number, taskId: number, position: number) =>
  ({
    id,
    version: 1,
    status: 'ACTIVE',
    createdAt: '',
    updatedAt: '',
    name: `c${id}`,
    taskId,
    position,
  }) as StoredRecord;
const filters = { projectId: 1 };
const sortBy = ['position', 'id'];

/** Two columns as text (`10: c1 c2 | 20: c3`) and a button that moves c1 to the top of column 20. */
function Harness({ onConflict }: { onConflict(): void }) {
  const cards = useGetEvery('gadget', filters, sortBy);
  const move = useMoveRecord<ListData>(
    'gadget',
    queryKeys.entity.every('gadget', filters, sortBy),
    (data, m) => moved(data, f, { id: m.id, group: m.input.group, index: m.input.index }),
    onConflict,
  );
  const columns = byGroup(cards.data?.list ?? [], f, ['10', '20']);
  const text = [...columns].map(([g, rows]) => `${g}: ${rows.map((r) => r.name).join(' ')}`).join(' | ');
  return (
    <>
      <output data-testid="board">{cards.data ? text : 'loading'}</output>
      <button type="button" onClick={() => move.mutate({ id: 1, input: { group: 20, index: 0, version: 1 } })}>
        move
      </button>
    </>
  );
}

/** A data provider whose list answers `rows` and whose move waits until the test settles it. */
function boardProvider(rows: StoredRecord[]) {
  let settle: { resolve(v: unknown): void; reject(e: unknown): void } | undefined;
  const getList = vi.fn(() => Promise.resolve({ list: rows, total: rows.length }));
  const moveRecord = vi.fn(
    () =>
      new Promise<{ order: [] }>((resolve, reject) => {
        settle = { resolve: resolve as (v: unknown) => void, reject };
      }),
  );
  return { dataProvider: createFakeDataProvider({ getList, moveRecord }), getList, moveRecord, settle: () => settle! };
}

describe('the board moves a card at once and puts it back on 409', () => {
  it('rolls back, reports the conflict and reads the board again', async () => {
    const rows = [card(1, 10, 0), card(2, 10, 1), card(3, 20, 0)];
    const provider = boardProvider(rows);
    const onConflict = vi.fn();
    const { user } = renderWithProviders(<Harness onConflict={onConflict} />, { dataProvider: provider.dataProvider });
    const board = await screen.findByText('10: c1 c2 | 20: c3');
    await user.click(screen.getByRole('button', { name: 'move' }));
    // Shown before the server answers.
    await waitFor(() => expect(board.textContent).toBe('10: c2 | 20: c1 c3'));
    expect(provider.moveRecord).toHaveBeenCalledWith('gadget', 1, { group: 20, index: 0, version: 1 });
    const reads = provider.getList.mock.calls.length;
    // The read that follows never answers here: what the board shows after the 409 is the rollback alone.
    provider.getList.mockImplementation(() => new Promise(() => {}));
    await act(async () => provider.settle().reject(new HttpError(409, { message: 'stale', details: {} }, '409')));
    await waitFor(() => expect(board.textContent).toBe('10: c1 c2 | 20: c3'));
    expect(onConflict).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(provider.getList.mock.calls.length).toBeGreaterThan(reads));
  });

  it('keeps a move the server accepts (then shows what the server has)', async () => {
    const rows = [card(1, 10, 0), card(2, 10, 1), card(3, 20, 0)];
    const provider = boardProvider(rows);
    const onConflict = vi.fn();
    const { user } = renderWithProviders(<Harness onConflict={onConflict} />, { dataProvider: provider.dataProvider });
    const board = await screen.findByText('10: c1 c2 | 20: c3');
    await user.click(screen.getByRole('button', { name: 'move' }));
    await waitFor(() => expect(board.textContent).toBe('10: c2 | 20: c1 c3'));
    // The server now keeps the new order.
    rows.splice(0, rows.length, card(2, 10, 0), card(1, 20, 0), card(3, 20, 1));
    await act(async () => provider.settle().resolve({ order: [] }));
    await waitFor(() => expect(provider.getList).toHaveBeenCalledTimes(2));
    expect(board.textContent).toBe('10: c2 | 20: c1 c3');
    expect(onConflict).not.toHaveBeenCalled();
  });
});
