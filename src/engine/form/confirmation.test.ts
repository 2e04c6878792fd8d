/** The pure parts of the confirmation page: the promised due date and the tracking link's parameters. */
import { describe, expect, it } from 'vitest';
import { dueDate, trackParams } from './confirmation.ts';

describe('confirmation page', () => {
  it('counts the promised days from the submit day in Tashkent, calendar or working days', () => {
    expect(dueDate('2026-11-26T10:00:00Z', 15)).toBe('2026-12-11');
    // 20:00 UTC is already the next day in Tashkent (UTC+5).
    expect(dueDate('2026-11-26T20:00:00Z', 15)).toBe('2026-12-12');
    // Friday + 1 working day is Monday; + 15 working days is three weeks on.
    expect(dueDate('2026-11-27T10:00:00Z', 1, 'working')).toBe('2026-11-30');
    expect(dueDate('2026-11-27T10:00:00Z', 15, 'working')).toBe('2026-12-18');
  });

  it('pre-fills the tracking lookup with the reference and the contact the record was filed with', () => {
    const track = {
      screen: 'online-watching',
      tab: 'reference',
      contact: { phone: '/phone', pinfl: '/customer/pnfl' },
    };
    expect(trackParams(track, 'M-2026-000007', { phone: '+99890-123-45-67', customer: {} })).toEqual({
      tab: 'reference',
      reference: 'M-2026-000007',
      phone: '+99890-123-45-67',
    });
    expect(trackParams({ screen: 'x', referenceParam: 'number' }, 'A-1', {})).toEqual({ number: 'A-1' });
  });
});
