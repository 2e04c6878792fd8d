import { describe, expect, it } from 'vitest';
import { negotiateHeartbeat, silenceLimit } from './session.ts';

describe('STOMP heart-beat negotiation', () => {
  it('sends every max(cy, server) and expects every max(cx, server); 0 on either side is none that way', () => {
    expect(negotiateHeartbeat('5000,30000', 10_000)).toEqual({ send: 30_000, receive: 10_000 });
    expect(negotiateHeartbeat('20000,4000', 10_000)).toEqual({ send: 10_000, receive: 20_000 });
    expect(negotiateHeartbeat('0,4000', 10_000)).toEqual({ send: 10_000, receive: 0 });
    expect(negotiateHeartbeat('4000,0', 10_000)).toEqual({ send: 0, receive: 10_000 });
    expect(negotiateHeartbeat(undefined, 10_000)).toEqual({ send: 0, receive: 0 });
    expect(negotiateHeartbeat('1000,1000', 0)).toEqual({ send: 0, receive: 0 });
  });

  it('reads a malformed header as no heart-beats rather than as a tight loop', () => {
    expect(negotiateHeartbeat('x,y', 200)).toEqual({ send: 0, receive: 0 });
    expect(negotiateHeartbeat('-5,-5', 200)).toEqual({ send: 0, receive: 0 });
    expect(negotiateHeartbeat('100', 200)).toEqual({ send: 0, receive: 200 });
  });

  it('drops a peer after two of its intervals and a margin', () => {
    expect(silenceLimit(10_000)).toBe(21_000);
    expect(silenceLimit(200)).toBe(1_400);
  });
});
