/** The messenger's times: 24-hour Tashkent wall-clock time, as every list and record page shows them. */
import { describe, expect, it } from 'vitest';
import { messageTime } from './time.ts';

describe('messageTime', () => {
  const now = new Date('2026-11-23T12:00:00.000Z'); // 17:00 in Tashkent

  it("shows today's message as hh:mm in Tashkent, 24-hour, whatever the browser's zone", () => {
    expect(messageTime('2026-11-23T10:05:00.000Z', now)).toBe('15:05');
    expect(messageTime('2026-11-22T19:00:00.000Z', now)).toBe('00:00');
  });

  it('shows an older message with its Tashkent date', () => {
    expect(messageTime('2026-11-22T18:59:00.000Z', now)).toBe('22.11.2026 23:59');
    expect(messageTime('2026-11-20T08:30:00.000Z', now)).toBe('20.11.2026 13:30');
  });

  it('shows nothing for an unreadable time', () => {
    expect(messageTime('not a time', now)).toBe('');
  });
});
