/**
 * The named payload checks of the registry (src/server/workflow/implementations.ts) that
 * machines list under a transition's `checks`: dates against the Tashkent calendar and
 * against the record, around both midnights (Tashkent's at 19:00 UTC, and UTC's).
 */
import { describe, expect, it } from 'vitest';
import { checkImplementations } from '../../src/server/workflow/implementations.ts';
import { checkPayload } from '../../src/server/workflow/machine.ts';
import type { Transition } from '../../src/generated/meta.ts';

const at = (now: string, payload: Record<string, unknown>, record: Record<string, unknown> = {}) => ({
  record,
  payload,
  actorId: '7',
  now: new Date(now),
});
const check = (name: string) => {
  const impl = checkImplementations[name];
  if (!impl) throw new Error(`no check ${name} in the registry`);
  return impl;
};
const [dateNotPast, dateNotFuture, dateAfterField, dateNotBeforeField] = [
  'dateNotPast',
  'dateNotFuture',
  'dateAfterField',
  'dateNotBeforeField',
].map(check) as [
  ReturnType<typeof check>,
  ReturnType<typeof check>,
  ReturnType<typeof check>,
  ReturnType<typeof check>,
];

describe('date checks', () => {
  it('dateNotPast: today or later in Tashkent days', () => {
    const field = { field: '/newDeadline' };
    // 18:59 UTC on 4 May is 23:59 on 4 May in Tashkent: the 4th is still today.
    expect(dateNotPast(at('2026-05-04T18:59:59Z', { newDeadline: '2026-05-04' }), field)).toBeUndefined();
    // 19:00 UTC is Tashkent midnight: the 4th has become yesterday, though UTC still says the 4th.
    expect(dateNotPast(at('2026-05-04T19:00:00Z', { newDeadline: '2026-05-04' }), field)).toEqual({
      pointer: '/newDeadline',
      key: 'validation.dateNotPast',
      params: { date: '05.05.2026' },
    });
    expect(dateNotPast(at('2026-05-04T19:00:00Z', { newDeadline: '2026-05-05' }), field)).toBeUndefined();
    // A date-time is judged by its Tashkent day: 20:00 UTC on the 3rd is 01:00 on the 4th.
    expect(dateNotPast(at('2026-05-04T10:00:00Z', { newDeadline: '2026-05-03T20:00:00Z' }), field)).toBeUndefined();
    expect(dateNotPast(at('2026-05-04T10:00:00Z', { newDeadline: '2026-05-03T18:00:00Z' }), field)?.key).toBe(
      'validation.dateNotPast',
    );
    // An empty or malformed value is the schema's business (required, format), not this check's.
    expect(dateNotPast(at('2026-05-04T10:00:00Z', {}), field)).toBeUndefined();
    expect(dateNotPast(at('2026-05-04T10:00:00Z', { newDeadline: 'soon' }), field)).toBeUndefined();
  });

  it('dateNotFuture: today or earlier in Tashkent days', () => {
    const field = { field: '/date' };
    expect(dateNotFuture(at('2026-05-04T18:59:59Z', { date: '2026-05-05' }), field)).toEqual({
      pointer: '/date',
      key: 'validation.dateNotFuture',
      params: { date: '04.05.2026' },
    });
    expect(dateNotFuture(at('2026-05-04T19:00:00Z', { date: '2026-05-05' }), field)).toBeUndefined();
    expect(dateNotFuture(at('2026-05-04T19:00:00Z', { date: '2001-01-01' }), field)).toBeUndefined();
  });

  it('dateAfterField: strictly after the record’s date; by instant when both are date-times; passes while the record has none', () => {
    const params = { field: '/newDeadline', than: '/deadline', message: 'workflow.check.newDeadlineAfterCurrent' };
    const now = '2026-05-04T10:00:00Z';
    expect(dateAfterField(at(now, { newDeadline: '2026-06-01' }, { deadline: '2026-06-01' }), params)).toEqual({
      pointer: '/newDeadline',
      key: 'workflow.check.newDeadlineAfterCurrent',
      params: { date: '01.06.2026' },
    });
    expect(dateAfterField(at(now, { newDeadline: '2026-06-02' }, { deadline: '2026-06-01' }), params)).toBeUndefined();
    expect(dateAfterField(at(now, { newDeadline: '2026-05-31' }, { deadline: '2026-06-01' }), params)?.params).toEqual({
      date: '01.06.2026',
    });
    expect(dateAfterField(at(now, { newDeadline: '2026-05-31' }, {}), params)).toBeUndefined();
    const hearing = { field: '/hearingAt', than: '/hearingAt' };
    // Two date-times: an hour later the same day is later (the message shows Tashkent time).
    expect(
      dateAfterField(at(now, { hearingAt: '2026-06-01T05:00:00Z' }, { hearingAt: '2026-06-01T04:00:00Z' }), hearing),
    ).toBeUndefined();
    expect(
      dateAfterField(at(now, { hearingAt: '2026-06-01T04:00:00Z' }, { hearingAt: '2026-06-01T04:00:00Z' }), hearing),
    ).toEqual({ pointer: '/hearingAt', key: 'validation.dateAfterField', params: { date: '01.06.2026 09:00' } });
    // A date against a date-time compares Tashkent days.
    expect(
      dateAfterField(at(now, { newDeadline: '2026-06-01' }, { deadline: '2026-05-31T20:00:00Z' }), params)?.params,
    ).toEqual({ date: '01.06.2026 01:00' });
  });

  it('dateNotBeforeField: the record’s day itself passes, the day before does not', () => {
    const params = { field: '/date', than: '/createdAt' };
    const record = { createdAt: '2026-05-03T20:30:00.000Z' }; // 01:30 on 4 May in Tashkent
    expect(dateNotBeforeField(at('2026-05-10T10:00:00Z', { date: '2026-05-04' }, record), params)).toBeUndefined();
    expect(dateNotBeforeField(at('2026-05-10T10:00:00Z', { date: '2026-05-03' }, record), params)).toEqual({
      pointer: '/date',
      key: 'validation.dateNotBeforeField',
      params: { date: '04.05.2026 01:30' },
    });
    expect(dateNotBeforeField(at('2026-05-10T10:00:00Z', { date: '2026-05-03' }, {}), params)).toBeUndefined();
  });

  it('checkPayload runs a transition’s checks in order and keeps the first problem of each field', () => {
    const transition = {
      description: 'Extend.',
      checks: [
        { type: 'dateNotPast', params: { field: '/newDeadline' } },
        { type: 'dateAfterField', params: { field: '/newDeadline', than: '/deadline' } },
        { type: 'dateNotFuture', params: { field: '/since' } },
      ],
    } as Transition;
    const record = { deadline: '2026-05-20' };
    expect(
      checkPayload(transition, at('2026-05-10T10:00:00Z', { newDeadline: '2026-05-21', since: '2026-05-10' }, record)),
    ).toEqual([]);
    // Past and not after the current deadline: the first check speaks for the field.
    expect(
      checkPayload(transition, at('2026-05-10T10:00:00Z', { newDeadline: '2026-05-01', since: '2026-05-11' }, record)),
    ).toEqual([
      { pointer: '/newDeadline', key: 'validation.dateNotPast', params: { date: '10.05.2026' } },
      { pointer: '/since', key: 'validation.dateNotFuture', params: { date: '10.05.2026' } },
    ]);
    expect(checkPayload(transition, at('2026-05-10T10:00:00Z', { newDeadline: '2026-05-20' }, record))).toEqual([
      { pointer: '/newDeadline', key: 'validation.dateAfterField', params: { date: '20.05.2026' } },
    ]);
    expect(
      checkPayload(
        { description: 'No checks.' } as Transition,
        at('2026-05-10T10:00:00Z', { newDeadline: '2001-01-01' }, record),
      ),
    ).toEqual([]);
  });
});
