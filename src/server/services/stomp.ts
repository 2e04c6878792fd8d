import fp from 'fastify-plugin';
import { WebSocketServer } from 'ws';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.ts';
import { createRefreshTokens, createTokenService } from '../auth/tokens.ts';
import { ACCESS_WITHDRAWN, createLiveUpkeep } from '../messenger/upkeep.ts';
import { createDocumentMarking } from '../messenger/document-marking.ts';
import { SECURITY_ROLE, StompSession, type SessionUser } from '../messenger/session.ts';
import type { LiveEvent } from '../messenger/broker.ts';
import { pickLocale } from '../../shared/locales.ts';
import { MESSENGER_SUBJECT } from '../messenger/counters.ts';

/** Where the live socket is (the spec's path). */
export const STOMP_PATH = '/gs-guide-websocket';

/**
 * The live socket (spec §7): STOMP 1.2 over WebSocket at /gs-guide-websocket (a plain GET
 * there is answered by routes/stomp.ts). CONNECT carries the bearer token (`Authorization:
 * Bearer …`, or `passcode`); the Origin of a browser must be the portal's own host or one of
 * STOMP_ALLOWED_ORIGINS. Events reach sockets through the messenger's broker, so a user
 * connected to another instance is reached through the relay. Every successful write (any
 * route) signals the instances to recheck sessions and counters (messenger/upkeep.ts).
 */
export default fp(
  async (app) => {
    const access = app.definitions.access!;
    const tokens = await createTokenService(
      app.db,
      process.env.AUTH_SECRET || undefined,
      app.config.accessTokenSeconds,
    );
    const { revokedOf } = createRefreshTokens(app.db);
    const messenger = app.messenger;
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: 1024 * 1024,
      handleProtocols: (protocols) => (protocols.has('v12.stomp') ? 'v12.stomp' : false),
    });
    const sessions = new Set<StompSession>();
    const upkeep = createLiveUpkeep(app, sessions);
    const announceMarking = createDocumentMarking(app);

    const originAllowed = (request: IncomingMessage): boolean => {
      const origin = request.headers.origin;
      // Non-browser clients send no Origin; they cannot be tricked into using someone's cookies
      // either (the token is sent explicitly), so only browsers' origins are checked.
      if (!origin) return true;
      if (app.config.allowedOrigins?.includes(origin)) return true;
      try {
        return new URL(origin).host === request.headers.host;
      } catch {
        return false;
      }
    };

    // Delivered marks are batched: one UPDATE per burst, not one per message.
    let pendingMarks: number[] = [];
    let flushing: Promise<void> = Promise.resolve();
    let flushTimer: NodeJS.Timeout | undefined;
    const flush = () => {
      flushTimer = undefined;
      const ids = pendingMarks;
      pendingMarks = [];
      if (!ids.length) return flushing;
      flushing = flushing
        .then(() =>
          app.db.query(
            'UPDATE messenger_event SET delivered_at = now() WHERE id = ANY($1::bigint[]) AND delivered_at IS NULL',
            [ids],
          ),
        )
        .then(
          () => undefined,
          (error: Error) => app.log.error(error),
        );
      return flushing;
    };

    const json = (body: string): Record<string, unknown> => {
      try {
        const value: unknown = JSON.parse(body || '{}');
        if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {
        // reported below
      }
      throw new Error('the body must be a JSON object');
    };
    const optionalId = (v: unknown): number | undefined =>
      v === undefined || v === null || v === ''
        ? undefined
        : Number.isSafeInteger(Number(v)) && Number(v) > 0
          ? Number(v)
          : NaN;

    const hooks = {
      async authenticate(headers: Record<string, string>): Promise<SessionUser | undefined> {
        const raw = headers.Authorization ?? headers.authorization ?? headers.passcode ?? '';
        const token = raw.replace(/^Bearer\s+/i, '').trim();
        const claims = token ? await tokens.verify(token) : undefined;
        if (!claims || claims.expiresAt <= Date.now()) return undefined;
        // A valid token of someone the socket is not for (no sign-in, a citizen, no messenger):
        // "session ended", so the web app stays off the socket. Answered as a bad token, it
        // renewed the session at every reconnect (every 3 s), rotating the refresh token under
        // the user's other tabs until one of them presented a spent one and the session ended.
        const person = await messenger.person(claims.sub);
        if (!person || !person.canLogin || person.isOuter) throw new Error(ACCESS_WITHDRAWN);
        const actor = await messenger.counters.actorOf(claims.sub);
        if (!actor?.ability.can('read', MESSENGER_SUBJECT)) throw new Error(ACCESS_WITHDRAWN);
        if (claims.sid && (await revokedOf([claims.sid])).size) return undefined;
        return {
          id: person.id,
          security: person.roles.includes(SECURITY_ROLE),
          locale: pickLocale(headers['accept-language']),
          expiresAt: claims.expiresAt,
          sid: claims.sid,
        };
      },
      async pending(userId: string, channel: string): Promise<LiveEvent[]> {
        // Counters are state: a new subscriber gets the current figures at once.
        if (channel === 'notificationMsg') {
          const now = await messenger.counters.of(userId);
          upkeep.sent(userId, now);
          return [{ id: 0, userId, channel, body: now }];
        }
        await flush();
        const { rows } = await app.db.query<{ id: number; body: unknown }>(
          'SELECT id, body FROM messenger_event WHERE user_id = $1 AND channel = $2 AND delivered_at IS NULL ORDER BY id LIMIT 1000',
          [userId, channel],
        );
        return rows.map((r) => ({ id: r.id, userId, channel, body: r.body }));
      },
      async connected(session: StompSession) {
        // Presence is a courtesy: a failed write must not refuse the socket.
        await app.presence.connected(session.id, session.user!.id).catch((error: Error) => app.log.error(error));
      },
      delivered(ids: number[]) {
        pendingMarks.push(...ids);
        flushTimer ??= setTimeout(flush, 20);
      },
      async onSend(user: SessionUser, destination: string, body: string, session: StompSession) {
        try {
          switch (destination) {
            case '/app/register':
            case '/app/allUnreadMessages': {
              // allUnreadMessages carries the user id (spec §7): only one's own counts are told.
              if (
                destination === '/app/allUnreadMessages' &&
                body.trim() &&
                body.trim().replace(/^"|"$/g, '') !== user.id
              )
                throw new Error('forbidden: another user');
              session.reply({
                id: 0,
                userId: user.id,
                channel: 'unreadMessages',
                body: await messenger.unreadCounts(user.id),
              });
              return;
            }
            case '/app/sendMessage': {
              const b = json(body);
              await messenger.send(user.id, {
                chatId: optionalId(b.chatId),
                receiverId: b.receiverId === undefined ? undefined : String(b.receiverId),
                message: String(b.message ?? ''),
                replyTo: optionalId(b.replyTo ?? b.id),
              });
              return;
            }
            case '/app/sendGroupMessage': {
              const b = json(body);
              const groupChatId = optionalId(b.groupChatId);
              if (groupChatId === undefined) throw new Error('groupChatId is required');
              await messenger.send(user.id, {
                groupChatId,
                message: String(b.message ?? ''),
                replyTo: optionalId(b.replyTo ?? b.id),
              });
              return;
            }
            case '/app/announcementDocumentMarking': {
              await announceMarking(user.id, json(body));
              return;
            }
            default:
              throw new Error(`unknown destination ${destination}`);
          }
        } catch (error) {
          if (error instanceof ApiError) {
            const locale = user.locale;
            const fields = (error.fieldErrors ?? [])
              .map((f) => `${f.pointer}: ${app.translator.t(locale, f.key, f.params)}`)
              .join('; ');
            throw new Error(`${app.translator.t(locale, error.key, error.params)}${fields ? ` (${fields})` : ''}`);
          }
          throw error;
        }
      },
    };

    // --- sessions and counters kept current ---------------------------------------------------
    // A write through any instance (debounced here) is signalled to all of them through the
    // broker; each ends sessions that lost their right and pushes changed counters (upkeep.ts).
    let signalTimer: NodeJS.Timeout | undefined;
    app.addHook('onResponse', (request, reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
        signalTimer ??= setTimeout(() => {
          signalTimer = undefined;
          messenger.broker.signal({ kind: 'changed' });
        }, 300);
      }
      done();
    });
    // Delivered events are kept a week (for support questions), undelivered ones a month.
    const sweep = setInterval(() => {
      app.db
        .query(
          `DELETE FROM messenger_event WHERE (delivered_at < now() - interval '7 days') OR (created_at < now() - interval '30 days')`,
        )
        .catch((error: Error) => app.log.error(error));
    }, 3600_000).unref();

    const onUpgrade = (request: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== STOMP_PATH) {
        // Nobody else takes upgrades: an unknown path is refused rather than left hanging.
        if (app.server.listenerCount('upgrade') === 1)
          socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      if (!originAllowed(request)) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        const session = new StompSession(ws, messenger.broker, hooks, app.config.stompHeartbeatMs);
        sessions.add(session);
        ws.on('close', () => {
          sessions.delete(session);
          app.presence.disconnected(session.id).catch((error: Error) => app.log.error(error));
        });
      });
    };
    app.server.on('upgrade', onUpgrade);
    app.decorate('stompSessions', sessions);
    app.addHook('preClose', async () => {
      app.server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.terminate();
      wss.close();
      clearTimeout(flushTimer);
      clearTimeout(signalTimer);
      upkeep.close();
      clearInterval(sweep);
      await flush();
    });
  },
  { name: 'stomp', dependencies: ['messenger', 'presence'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The open live sockets' sessions of this instance. */
    stompSessions: Set<StompSession>;
  }
}
