/**
 * The `quorum` guard and guard messages (workflows/project.machine.json HOLD_SESSION): more
 * than half of the record's members present, strangers and repeats not counted, no members no
 * quorum; a guard's `params.message` is what a refusal says.
 */
import { describe, expect, it } from 'vitest';
import { guardImplementations, guardMessage, payloadGuards } from '../../src/server/workflow/implementations.ts';

const quorum = (members: unknown, present: unknown) =>
  guardImplementations.quorum!(
    { record: { employeeIds: members }, payload: { presentMemberIds: present }, actorId: '1', now: new Date() },
    { members: '/employeeIds', present: '/presentMemberIds' },
  );

describe('the quorum guard', () => {
  it('needs more than half of the members present', () => {
    expect(quorum([1, 2, 3, 4], [1, 2, 3])).toBe(true);
    expect(quorum([1, 2, 3, 4], [1, 2])).toBe(false);
    expect(quorum([1, 2, 3], [2, 3])).toBe(true);
    expect(quorum([1], [1])).toBe(true);
  });

  it('counts only members, once each; no members or no list is no quorum', () => {
    expect(quorum([1, 2, 3, 4], [1, 2, 9, 8])).toBe(false);
    expect(quorum([1, 2, 3], [1, 1, 1])).toBe(false);
    expect(quorum([], [1])).toBe(false);
    expect(quorum(undefined, [1])).toBe(false);
    expect(quorum([1, 2], undefined)).toBe(false);
  });

  it('reads the payload, so its event is offered before the payload exists', () => {
    expect(payloadGuards.has('quorum')).toBe(true);
  });

  it("takes a guard's message from its params", () => {
    expect(guardMessage({ type: 'quorum', params: { message: 'workflow.project.message.noQuorum' } })).toBe(
      'workflow.project.message.noQuorum',
    );
    expect(guardMessage({ type: 'fieldsFilled', params: { fields: ['/a'] } })).toBeUndefined();
    expect(guardMessage('actorIsAssigned')).toBeUndefined();
  });
});
