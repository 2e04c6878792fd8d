import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../client/data-provider.ts';
import { byGroup, moved, stepTarget } from './board-data.ts';

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
const data = { list: [card(1, 10, 0), card(2, 10, 1), card(3, 10, 2), card(4, 20, 0)], total: 4 };
const names = (d: typeof data, g: string) =>
  byGroup(d.list, f, ['10', '20'])
    .get(g)!
    .map((r) => `c${r.id}@${r.position}`);

describe('board data', () => {
  it('moves within a column, renumbering it', () => {
    const next = moved(data, f, { id: 3, index: 0 });
    expect(names(next, '10')).toEqual(['c3@0', 'c1@1', 'c2@2']);
  });
  it('moves across columns, closing the gap and taking the new column', () => {
    const next = moved(data, f, { id: 1, group: 20, index: 1 });
    expect(names(next, '10')).toEqual(['c2@0', 'c3@1']);
    expect(names(next, '20')).toEqual(['c4@0', 'c1@1']);
    expect(next.list.find((r) => r.id === 1)!.taskId).toBe(20);
  });
  it('steps a card with the menu, and not past the edges', () => {
    const columns = byGroup(data.list, f, ['10', '20']);
    expect(stepTarget(['10', '20'], columns, data.list[1]!, 'right', f)).toEqual({ group: '20', index: 1 });
    expect(stepTarget(['10', '20'], columns, data.list[0]!, 'up', f)).toBeUndefined();
    expect(stepTarget(['10', '20'], columns, data.list[3]!, 'left', f)).toEqual({ group: '10', index: 0 });
    expect(stepTarget(['10', '20'], columns, data.list[3]!, 'right', f)).toBeUndefined();
  });
});
