/**
 * Counting a visit: once per browser session, marked only after the server took it, and the
 * reply read to its end (an unread no-store body stays open in the browser, and Lighthouse
 * waits for a quiet network).
 */
import { describe, expect, it } from 'vitest';
import { countVisitOnce } from './visits.ts';

const memoryStorage = () => {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
};

/** A fetch answering `status` whose reply tells whether its body was read. */
const server = (status: number) => {
  const calls: string[] = [];
  let read = false;
  const send = (async (url: string) => {
    calls.push(url);
    const body = new ReadableStream(
      {
        pull(controller) {
          read = true;
          controller.enqueue(new TextEncoder().encode('{"visits":1}'));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status, headers: { 'cache-control': 'no-store' } });
  }) as typeof fetch;
  return { send, calls, wasRead: () => read };
};

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('countVisitOnce', () => {
  it('counts once per session and reads the reply to its end', async () => {
    const storage = memoryStorage();
    const s = server(200);
    countVisitOnce(storage, s.send);
    await settled();
    expect(s.calls).toEqual(['/api/visit/add']);
    expect(s.wasRead()).toBe(true);
    countVisitOnce(storage, s.send);
    await settled();
    expect(s.calls).toHaveLength(1);
  });

  it('tries again on the next page when the server did not take it, still reading the reply', async () => {
    const storage = memoryStorage();
    const failing = server(429);
    countVisitOnce(storage, failing.send);
    await settled();
    expect(failing.wasRead()).toBe(true);
    const ok = server(200);
    countVisitOnce(storage, ok.send);
    await settled();
    expect(ok.calls).toHaveLength(1);
  });
});
