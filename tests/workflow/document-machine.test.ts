/**
 * What the document machine's actions do to the record (the contract tests check statuses,
 * versions and history; here: the data the named actions write), computed with the same
 * pure step the server uses.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import type { MachineDefinition } from '../../src/generated/meta.ts';
import { computeStep, toXStateMachine } from '../../src/server/workflow/machine.ts';
import { actionImplementations } from '../../src/server/workflow/implementations.ts';

const machine = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'workflows/document.machine.json'), 'utf8'),
) as MachineDefinition;
const executable = toXStateMachine(machine);
const now = new Date('2026-03-04T10:00:00Z');
const step = (
  status: string,
  record: Record<string, unknown>,
  type: string,
  actorId: string,
  payload: Record<string, unknown> = {},
) => computeStep(machine, executable, status, { record, payload, actorId, now }, { type, payload });

describe('the generic actions', () => {
  it('setValue writes the fixed value; copyField copies one record field into another (absent → removed)', () => {
    const ctx = { record: { a: '2030-01-02' }, payload: {}, actorId: '7', now };
    expect(actionImplementations.setValue!(ctx, { field: 'routedTo', value: 'COMMISSION_CHAIR' })).toEqual({
      routedTo: 'COMMISSION_CHAIR',
    });
    expect(actionImplementations.copyField!(ctx, { field: 'b', from: 'a' })).toEqual({ b: '2030-01-02' });
    expect(actionImplementations.copyField!(ctx, { field: 'b', from: 'missing' })).toEqual({ b: undefined });
  });
});

describe('document machine data', () => {
  const base = {
    number: 'D-1',
    date: '2026-03-01',
    type: 'LETTER',
    regionId: 1,
    deadline: '2026-03-20',
    executorId: 5,
    signerId: 9,
  };

  it('an extension changes the completion time only once the named signer signs it', () => {
    const asked = step('BEING_SEEN', base, 'EXTEND_DEADLINE', '5', {
      newDeadline: '2026-04-30',
      reason: 'More documents requested',
    });
    expect(asked).toMatchObject({
      ok: true,
      status: 'FOR_EXTENDED_DXA',
      record: { deadline: '2026-03-20', requestedDeadline: '2026-04-30', extensionReason: 'More documents requested' },
    });
    if (!asked.ok) return;
    expect(step('FOR_EXTENDED_DXA', asked.record, 'SIGN', '5')).toEqual({ ok: false, reason: 'guard' });
    const signed = step('FOR_EXTENDED_DXA', asked.record, 'SIGN', '9');
    expect(signed).toMatchObject({
      ok: true,
      status: 'EXTENDED',
      record: { deadline: '2026-04-30', signedDate: '2026-03-04' },
    });
    expect(signed.ok && 'requestedDeadline' in signed.record).toBe(false);
    const refused = step('FOR_EXTENDED_DXA', asked.record, 'RETURN_TO_DRAFT', '9');
    expect(refused).toMatchObject({ ok: true, status: 'BEING_SEEN', record: { deadline: '2026-03-20' } });
    expect(refused.ok && 'requestedDeadline' in refused.record).toBe(false);
  });

  it('routing records where the document went; the visa is stamped by agree and cleared when the draft is returned', () => {
    expect(step('CREATED', base, 'SEND_TO_COMMISSION_CHAIR', '1')).toMatchObject({
      ok: true,
      status: 'RECEIVED',
      record: { routedTo: 'COMMISSION_CHAIR' },
    });
    expect(step('CREATED', base, 'SEND_TO_DEPARTMENT_HEAD', '1', { departmentId: 3 })).toMatchObject({
      ok: true,
      status: 'RECEIVED',
      record: { routedTo: 'DEPARTMENT_HEAD', departmentId: 3 },
    });
    const agreed = step('REVIEW_FINISHED', base, 'AGREE', '3');
    expect(agreed).toMatchObject({
      ok: true,
      status: 'VISA_APPROVED',
      record: { visaDate: '2026-03-04', visaIssuerId: 3 },
    });
    if (!agreed.ok) return;
    const returned = step('VISA_APPROVED', agreed.record, 'RETURN_TO_DRAFT', '9');
    expect(returned.ok && 'visaDate' in returned.record).toBe(false);
  });

  it('only the assigned executor decides, and a refusal keeps its grounds', () => {
    expect(step('VISA_APPROVED', base, 'REJECT', '6', { grounds: 'Outside the deadline' })).toEqual({
      ok: false,
      reason: 'guard',
    });
    expect(step('VISA_APPROVED', base, 'REJECT', '5', { grounds: 'Outside the deadline' })).toMatchObject({
      ok: true,
      status: 'FOR_REJECTED_DXA',
      record: { decisionGrounds: 'Outside the deadline' },
    });
  });
});
