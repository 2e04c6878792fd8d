/**
 * What an audit row keeps of a change and what a reader is shown of it
 * (src/server/store/audit-trail.ts): key order is no change, nested fields are their own
 * entries, long values are cut on a character boundary, hidden fields leave no trace — also
 * inside an object value — and withheld fields keep only their pointer.
 */
import { describe, expect, it } from 'vitest';
import {
  AUDIT_VALUE_CHARS,
  auditChanges,
  auditRow,
  readableChanges,
  staffUserPointers,
} from '../../src/server/store/audit-trail.ts';

describe('audit changes', () => {
  it('sees no change in another key order, and names nested fields by their own pointer', () => {
    const before = { customer: { name: 'Ali', pnfl: '1' }, files: ['a', 'b'], phone: '+1' };
    expect(auditRow(before, { phone: '+1', files: ['a', 'b'], customer: { pnfl: '1', name: 'Ali' } })).toEqual({
      changed: [],
      diff: [],
    });
    expect(auditRow(before, { customer: { name: 'Vali', pnfl: '1' }, files: ['b', 'a'] })).toEqual({
      changed: ['customer', 'files', 'phone'],
      diff: [
        { pointer: '/customer/name', old: 'Ali', new: 'Vali' },
        { pointer: '/files', old: ['a', 'b'], new: ['b', 'a'] },
        { pointer: '/phone', old: '+1' },
      ],
    });
  });

  it('keeps an emptied object, a status change in pointer order, and an object replaced by a scalar whole', () => {
    expect(auditChanges({ bank: { name: 'X' } }, { bank: {} })).toEqual([{ pointer: '/bank/name', old: 'X' }]);
    expect(auditChanges({}, { bank: {} })).toEqual([{ pointer: '/bank', new: {} }]);
    expect(auditChanges({ a: { b: 1 } }, { a: null })).toEqual([{ pointer: '/a', old: { b: 1 }, new: null }]);
    expect(
      auditRow({ note: 'x', zeta: 1 }, { note: 'y', zeta: 1 }, { old: 'NEW', new: 'DONE' }).diff.map((c) => c.pointer),
    ).toEqual(['/note', '/status']);
  });

  it('names a key holding "/" or "~" by its escaped pointer, reads its values and orders it by the key', () => {
    expect(auditRow({ 's/z': 1, 'x~y': { a: 1 } }, { 's/z': 2, 'x~y': { a: 2 } }, { old: 'NEW', new: 'DONE' })).toEqual(
      {
        changed: ['s/z', 'status', 'x~y'],
        diff: [
          { pointer: '/s~1z', old: 1, new: 2 },
          { pointer: '/status', old: 'NEW', new: 'DONE' },
          { pointer: '/x~0y/a', old: 1, new: 2 },
        ],
      },
    );
  });

  it('cuts a long value to the cap, never inside a surrogate pair, and marks the side', () => {
    const long = `${'a'.repeat(AUDIT_VALUE_CHARS - 1)}😀tail`;
    const [cut] = auditChanges({ text: 'short' }, { text: long });
    expect(cut).toEqual({ pointer: '/text', old: 'short', new: 'a'.repeat(AUDIT_VALUE_CHARS - 1), truncated: ['new'] });
    const list = Array.from({ length: 3000 }, (_, i) => i);
    const [whole] = auditChanges(undefined, { list });
    expect(whole!.truncated).toEqual(['new']);
    expect(whole!.new).toBe(JSON.stringify(list).slice(0, AUDIT_VALUE_CHARS));
    expect(auditChanges(undefined, { text: 'b'.repeat(AUDIT_VALUE_CHARS) })[0]).toEqual({
      pointer: '/text',
      new: 'b'.repeat(AUDIT_VALUE_CHARS),
    });
  });
});

describe('readable changes', () => {
  const changes = [
    { pointer: '/consumer', old: { name: 'Ali', pinfl: '3120' }, new: { name: 'Vali', pinfl: '3121' } },
    { pointer: '/consumer/phone', old: '+1', new: '+2' },
    { pointer: '/executorId', old: 4, new: 5 },
    { pointer: '/note', new: 'x' },
  ];

  it('leaves out hidden fields, also inside an object value, and withholds only the values of withheld ones', () => {
    expect(readableChanges(changes, ['/consumer/pinfl', '/consumer/phone'], ['/executorId'])).toEqual([
      { pointer: '/consumer', old: { name: 'Ali' }, new: { name: 'Vali' } },
      { pointer: '/executorId', redacted: true },
      { pointer: '/note', new: 'x' },
    ]);
    expect(readableChanges(changes, ['/consumer'], [])).toEqual(changes.slice(2));
  });

  it('drops a change that was only in hidden fields, and withholds a cut value that holds one', () => {
    expect(
      readableChanges(
        [{ pointer: '/consumer', old: { name: 'Ali', pinfl: '1' }, new: { name: 'Ali', pinfl: '2' } }],
        ['/consumer/pinfl'],
        [],
      ),
    ).toEqual([]);
    expect(
      readableChanges([{ pointer: '/consumer', new: '{"pinfl":"3120', truncated: ['new'] }], ['/consumer/pinfl'], []),
    ).toEqual([{ pointer: '/consumer', redacted: true }]);
  });

  it('finds staff user fields up to the first array', () => {
    expect(
      staffUserPointers({
        type: 'object',
        properties: {
          executorId: { type: 'integer', staffUser: true } as never,
          coExecutors: { type: 'array', items: { type: 'integer', staffUser: true } as never },
          visas: {
            type: 'array',
            items: { type: 'object', properties: { userId: { type: 'integer', staffUser: true } as never } },
          },
          note: { type: 'string' },
        },
      }).sort(),
    ).toEqual(['/coExecutors', '/executorId', '/visas']);
  });
});
