/**
 * The pointer arithmetic of hidden fields (a role's `hiddenFields`): what counts as hidden,
 * what a reader gets of a record, what an update from someone who cannot see the fields keeps,
 * which payload fields of a workflow history row they do not see, and how their lists may
 * not search, filter or sort by them.
 */
import { describe, expect, it } from 'vitest';
import { isHiddenField, touchesHiddenField, withKeptFields, withoutFields } from '../../src/shared/hidden-fields.ts';
import { withoutHiddenPayload } from '../../src/server/workflow/history.ts';
import type { MachineDefinition } from '../../src/generated/meta.ts';
import type { HistoryEntry } from '../../src/shared/workflow.ts';
import { buildListQuery } from '../../src/server/store/list-query.ts';
import { createEntityTable } from '../../src/server/db/entity-table.ts';
import type { EntityDefinition } from '../../src/definitions/registry.ts';

const stored = {
  number: 'A-1',
  consumer: { lastName: 'Karimov', pinfl: '31205891234567', phone: '998901234567' },
  note: 'internal',
};

describe('hidden fields', () => {
  it('hides a field and everything inside a hidden object; reading a whole object that holds one touches it', () => {
    expect(isHiddenField(['/consumer/pinfl'], '/consumer/pinfl')).toBe(true);
    expect(isHiddenField(['/consumer'], '/consumer/pinfl')).toBe(true);
    expect(isHiddenField(['/consumer/pinfl'], '/consumer')).toBe(false);
    expect(isHiddenField(['/consumer/pin'], '/consumer/pinfl')).toBe(false);
    expect(touchesHiddenField(['/consumer/pinfl'], '/consumer')).toBe(true);
    expect(touchesHiddenField(['/consumer/pinfl'], '/consumerName')).toBe(false);
  });

  it('leaves hidden fields out of a copy, without changing the record', () => {
    const copy = withoutFields(stored, ['/consumer/pinfl', '/consumer/phone', '/missing/deep', '/number/x']);
    expect(copy).toEqual({ number: 'A-1', consumer: { lastName: 'Karimov' }, note: 'internal' });
    expect(stored.consumer.pinfl).toBe('31205891234567');
    expect(withoutFields(stored, ['/consumer'])).toEqual({ number: 'A-1', note: 'internal' });
  });

  it('puts the stored values back where an update leaves them out, and nowhere it says something else', () => {
    const hidden = ['/consumer/pinfl', '/consumer/phone'];
    // The form of someone who never saw them: the object without the hidden fields.
    expect(withKeptFields({ number: 'A-2', consumer: { lastName: 'Karimova' } }, stored, hidden)).toEqual({
      number: 'A-2',
      consumer: { lastName: 'Karimova', pinfl: '31205891234567', phone: '998901234567' },
    });
    // Nothing of the object at all: it is made again around them.
    expect(withKeptFields({ number: 'A-2' }, stored, hidden)).toEqual({
      number: 'A-2',
      consumer: { pinfl: '31205891234567', phone: '998901234567' },
    });
    // A value sent for a hidden field is kept as sent (the store then refuses the change), and so is a replaced object.
    expect(withKeptFields({ consumer: { pinfl: '11111111111111' } }, stored, hidden)).toEqual({
      consumer: { pinfl: '11111111111111', phone: '998901234567' },
    });
    expect(withKeptFields({ consumer: null }, stored, hidden)).toEqual({ consumer: null });
    // A field the record never had is not invented.
    expect(withKeptFields({ note: 'x' }, stored, ['/consumer/email'])).toEqual({ note: 'x' });
    expect(withKeptFields('not an object', stored, hidden)).toBe('not an object');
  });
});

describe('workflow history of a reader with hidden fields', () => {
  const machine = {
    id: 'm',
    version: 1,
    initial: 'OPEN',
    description: 'test',
    states: {
      OPEN: {
        description: 'open',
        on: {
          EXTEND: {
            target: 'OPEN',
            description: 'extend',
            payload: {
              type: 'object',
              additionalProperties: false,
              properties: { newDeadline: { type: 'string' }, reason: { type: 'string' } },
            },
            actions: [{ type: 'copyFromPayload', params: { field: 'deadline', from: 'newDeadline' } }],
          },
        },
      },
    },
  } as unknown as MachineDefinition;
  const row: HistoryEntry = {
    id: 1,
    at: '2026-01-01T00:00:00Z',
    actor: '2',
    actorName: 'Staff',
    event: 'EXTEND',
    from: 'OPEN',
    to: 'OPEN',
    payload: { newDeadline: '2026-02-01', reason: 'late reply', note: 'n' },
    comment: null,
    machine: 'm',
    machineVersion: 1,
  };

  it('drops payload fields copied into a hidden field, and those named like one', () => {
    expect(withoutHiddenPayload(row, machine, ['/deadline']).payload).toEqual({ reason: 'late reply', note: 'n' });
    expect(withoutHiddenPayload(row, machine, ['/note']).payload).toEqual({
      newDeadline: '2026-02-01',
      reason: 'late reply',
    });
    expect(withoutHiddenPayload(row, machine, ['/other'])).toEqual(row);
    expect(withoutHiddenPayload(row, machine, [])).toBe(row);
  });
});

describe('lists of a reader with hidden fields', () => {
  const def = {
    id: 'gadget',
    manifest: { id: 'gadget', base: '/gadget', subject: 'Gadget', keywordFields: ['/name', '/owner/phone'] },
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        owner: { type: 'object', properties: { phone: { type: 'string' } } },
      },
    },
    grid: {
      columns: [
        { field: '/name', titleKey: 'n', sortable: true },
        { field: '/price', titleKey: 'p', sortable: true },
      ],
      defaultSort: [{ field: '/price', desc: true }],
      filters: [
        { name: 'keyword', kind: 'keyword', titleKey: 'k' },
        { name: 'price', kind: 'range', field: '/price', titleKey: 'p' },
        { name: 'phone', kind: 'eq', field: '/owner/phone', titleKey: 'o' },
      ],
    },
  } as unknown as EntityDefinition;
  const table = createEntityTable(def);

  it('searches the keyword in the visible keyword fields only', () => {
    expect(buildListQuery(def, table, { keyword: 'x' }, {}).where).toBe('WHERE keywords LIKE $1');
    const hidden = buildListQuery(def, table, { keyword: 'x' }, {}, ['/owner']).where;
    expect(hidden).toContain("data #>> '{name}'");
    expect(hidden).not.toContain('phone');
  });

  it('refuses filters and sorts by a hidden field, and leaves a hidden default sort for the id', () => {
    expect(() => buildListQuery(def, table, { phone: '998' }, {}, ['/owner/phone'])).toThrow(
      expect.objectContaining({ statusCode: 400 }),
    );
    expect(() => buildListQuery(def, table, { priceFrom: 1 }, {}, ['/price'])).toThrow(
      expect.objectContaining({ statusCode: 400 }),
    );
    expect(() => buildListQuery(def, table, {}, { sortBy: ['price'] }, ['/price'])).toThrow(
      expect.objectContaining({ statusCode: 400 }),
    );
    // An empty value is no filter; other filters and sorts still work.
    expect(
      buildListQuery(def, table, { phone: '', priceFrom: 1 }, { sortBy: ['name'] }, ['/owner/phone']).where,
    ).toMatch(/>= \$1/);
    expect(buildListQuery(def, table, {}, {}, ['/price']).orderBy).toBe('ORDER BY id DESC');
    expect(buildListQuery(def, table, {}, {}).orderBy).toMatch(/^ORDER BY "f_price" DESC, id DESC$/);
  });
});
