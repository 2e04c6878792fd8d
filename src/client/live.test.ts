// @vitest-environment happy-dom
/**
 * The app's live client (live.ts) over a stand-in STOMP client: subscriptions ask for
 * `client-individual` acknowledgements and a message is acknowledged only after the screens'
 * handlers ran, so one lost with its socket is still undelivered on the server and comes back
 * after the reconnect (the server side of that: tests/contract/stomp.test.ts and
 * tests/contract/live-client.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeStompClient } from './live-testing.ts';
import { closeLive, onLiveStatus, subscribeLive } from './live.ts';
import { setSetting } from './settings.ts';

vi.mock('@stomp/stompjs', async () => ({ Client: (await import('./live-testing.ts')).FakeStompClient }));

const offs: Array<() => void> = [];
const listen = (...args: Parameters<typeof subscribeLive>) => offs.push(subscribeLive(...args));

describe('live client', () => {
  beforeEach(() => {
    setSetting('accessToken', 'token-1');
    setSetting('userId', 7);
  });
  afterEach(async () => {
    offs.splice(0).forEach((off) => off());
    await closeLive();
    vi.restoreAllMocks();
  });

  it('subscribes with client-individual acknowledgements and acknowledges a message after every handler ran', async () => {
    listen('msg', () => client().note('handled by the chat'));
    listen('msg', () => client().note('handled by the list'));
    const client = () => FakeStompClient.last();
    await client().open();
    expect(client().connectHeaders).toEqual({ Authorization: 'Bearer token-1' });
    expect(
      client()
        .subscribed('/user/7/msg')
        .map((s) => s.headers),
    ).toEqual([{ ack: 'client-individual' }]);
    expect(client().published).toContainEqual({ destination: '/app/register', body: '{}' });

    client().deliver('/user/7/msg', { action: 'NEW', id: 41 }, '41');
    expect(client().log).toEqual(['message 41', 'handled by the chat', 'handled by the list', 'ack 41']);
  });

  it('acknowledges even when a handler fails, after the other handlers had the message', async () => {
    const failure = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    listen('notificationMsg', () => {
      throw new Error('a screen bug');
    });
    const seen: unknown[] = [];
    listen('notificationMsg', (body) => seen.push(body));
    const client = FakeStompClient.last();
    await client.open();
    client.deliver('/user/7/notificationMsg', { total: 3 }, 'state-1');
    expect(seen).toEqual([{ total: 3 }]);
    expect(client.acks).toEqual(['state-1']);
    expect(failure).toHaveBeenCalledWith('live: a notificationMsg handler failed', expect.any(Error));
  });

  it('does not acknowledge what its socket lost while handling it; after the reconnect the replayed message is handled and acknowledged', async () => {
    const client = () => FakeStompClient.last();
    const handled: unknown[] = [];
    let dropWhileHandling = true;
    listen('groupMsg', (body) => {
      handled.push(body.id);
      // The network goes in the middle of the handling: the acknowledgement has no socket to go to.
      if (dropWhileHandling) {
        dropWhileHandling = false;
        client().drop();
      }
    });
    const states: boolean[] = [];
    offs.push(onLiveStatus((up) => states.push(up)));
    await client().open();
    client().deliver('/user/7/groupMsg', { id: 5 }, '105');
    expect(client().acks).toEqual([]);
    expect(client().subscribed('/user/7/groupMsg')).toEqual([]);

    // The client reconnects by itself: the channel is subscribed again, in the same mode, and the server replays.
    await client().open();
    expect(
      client()
        .subscribed('/user/7/groupMsg')
        .map((s) => s.headers),
    ).toEqual([{ ack: 'client-individual' }]);
    client().deliver('/user/7/groupMsg', { id: 5 }, '105');
    expect(handled).toEqual([5, 5]);
    expect(client().acks).toEqual(['105']);
    expect(states).toEqual([false, true, false, true]);
  });

  it('ends the upstream subscription with the last handler of a channel', async () => {
    const first = subscribeLive('makeRead', () => undefined);
    const second = subscribeLive('makeRead', () => undefined);
    const client = FakeStompClient.last();
    await client.open();
    first();
    expect(client.subscribed('/user/7/makeRead')).toHaveLength(1);
    second();
    expect(client.subscribed('/user/7/makeRead')).toEqual([]);
  });
});
