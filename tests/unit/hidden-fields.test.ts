/**
 * The pointer arithmetic of hidden fields (a role's `hiddenFields`): what counts as hidden,
 * what a reader gets of a record, what an update from someone who cannot see the fields keeps,
 * and which payload fields of a workflow history row they do not see.
 */
import { describe, expect, it } from 'vitest';
import { isHiddenField, touchesHiddenField, withKeptFields, withoutFields } from '../../src/shared/hidden-fields.ts';
import { withoutHiddenPayload } from '../../src/server/workflow/transition.ts';
import type { MachineDefinition } from '../../src/generated/meta.ts';
import type { HistoryEntry } from '../../src/shared/workflow.ts';

const stored = { number: 'A-1', consumer: { lastName: 'Karimov', pinfl: '31205891234567', phone: '998901234567' }, note: 'internal' };

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
    expect(withKeptFields({ number: 'A-2', consumer: { lastName: 'Karimova' } }, stored, hidden))
      .toEqual({ number: 'A-2', consumer: { lastName: 'Karimova', pinfl: '31205891234567', phone: '998901234567' } });
    // Nothing of the object at all: it is made again around them.
    expect(withKeptFields({ number: 'A-2' }, stored, hidden)).toEqual({ number: 'A-2', consumer: { pinfl: '31205891234567', phone: '998901234567' } });
    // A value sent for a hidden field is kept as sent (the store then refuses the change), and so is a replaced object.
    expect(withKeptFields({ consumer: { pinfl: '11111111111111' } }, stored, hidden)).toEqual({ consumer: { pinfl: '11111111111111', phone: '998901234567' } });
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
            payload: { type: 'object', additionalProperties: false, properties: { newDeadline: { type: 'string' }, reason: { type: 'string' } } },
            actions: [{ type: 'copyFromPayload', params: { field: 'deadline', from: 'newDeadline' } }],
          },
        },
      },
    },
  } as unknown as MachineDefinition;
  const row: HistoryEntry = {
    id: 1, at: '2026-01-01T00:00:00Z', actor: '2', actorName: 'Staff', event: 'EXTEND', from: 'OPEN', to: 'OPEN',
    payload: { newDeadline: '2026-02-01', reason: 'late reply', note: 'n' }, comment: null, machine: 'm', machineVersion: 1,
  };

  it('drops payload fields copied into a hidden field, and those named like one', () => {
    expect(withoutHiddenPayload(row, machine, ['/deadline']).payload).toEqual({ reason: 'late reply', note: 'n' });
    expect(withoutHiddenPayload(row, machine, ['/note']).payload).toEqual({ newDeadline: '2026-02-01', reason: 'late reply' });
    expect(withoutHiddenPayload(row, machine, ['/other'])).toEqual(row);
    expect(withoutHiddenPayload(row, machine, [])).toBe(row);
  });
});
