// @vitest-environment happy-dom
/** The staff home's recently opened records: order, once each, the limit, forgotten at sign-out. */
import { beforeEach, describe, expect, it } from 'vitest';
import { RECENT_LIMIT, recentRecords, rememberRecord } from './recent.ts';
import { clearSession } from './settings.ts';

describe('recently opened records', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the newest first, once each, at most the limit', () => {
    for (let id = 1; id <= RECENT_LIMIT + 2; id++)
      rememberRecord({ path: `/admin/x/${id}`, entity: 'x', id, label: `R${id}` }, new Date(Date.UTC(2026, 0, id)));
    rememberRecord({ path: '/admin/x/5', entity: 'x', id: 5, label: 'R5 renamed' }, new Date(Date.UTC(2026, 1, 1)));
    const list = recentRecords();
    expect(list).toHaveLength(RECENT_LIMIT);
    expect(list[0]).toEqual({
      path: '/admin/x/5',
      entity: 'x',
      id: 5,
      label: 'R5 renamed',
      at: '2026-02-01T00:00:00.000Z',
    });
    expect(list.filter((r) => r.id === 5)).toHaveLength(1);
    expect(list.map((r) => r.id)).not.toContain(1);
  });

  it('forgets them at sign-out', () => {
    rememberRecord({ path: '/admin/x/1', entity: 'x', id: 1, label: 'R1' });
    clearSession();
    expect(recentRecords()).toEqual([]);
  });
});
