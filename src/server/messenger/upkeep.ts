import type { FastifyInstance } from 'fastify';
import { createRefreshTokens } from '../auth/tokens.ts';
import type { Signal } from './broker.ts';
import { MESSENGER_SUBJECT } from './counters.ts';
import { TOKEN_EXPIRED, type StompSession } from './session.ts';

/** The ERROR message of a session whose user signed out (or whose refresh family was revoked). */
export const SESSION_REVOKED = 'session ended: token revoked';
/** The ERROR message of a session whose user may no longer use the messenger (disabled, role taken). */
export const ACCESS_WITHDRAWN = 'session ended: access withdrawn';

/**
 * What keeps live sockets truthful after changes anywhere: on a broker signal (a write on any
 * instance) and every `livePollMs` (default 15 s, the fallback for anything unsignalled, e.g.
 * a family revoked by refresh-token reuse), this instance
 *   1. ends sessions whose token expired, whose refresh family was revoked, or whose user may
 *      no longer sign in or read the messenger (ERROR frame, then close);
 *   2. computes the header counters of its users listening on `notificationMsg` and pushes
 *      them where they differ from what that user was last sent.
 * Signals arriving during a pass run one more pass afterwards, so none is lost.
 */
export function createLiveUpkeep(app: FastifyInstance, sessions: Set<StompSession>) {
  const messenger = app.messenger;
  const refresh = createRefreshTokens(app.db);
  const lastCounters = new Map<string, string>();
  let running = false;
  /** Users whose state to check on the next pass; `all` after a `changed` signal. */
  let pending: Set<string> | 'all' | undefined;
  /** Whether the next pass was asked for by a signal (not only the timer). */
  let signalled = false;

  const byUser = (only: Set<string> | 'all') => {
    const users = new Map<string, StompSession[]>();
    for (const s of sessions) {
      if (!s.user || (only !== 'all' && !only.has(s.user.id))) continue;
      users.set(s.user.id, [...(users.get(s.user.id) ?? []), s]);
    }
    return users;
  };

  /**
   * Ends what must end. The roles and staff card (the actor) are read on signalled passes
   * only: the periodic pass would otherwise read them for every connected user every 15 s.
   */
  const recheck = async (users: Map<string, StompSession[]>, withActor: boolean) => {
    const ids = [...users.keys()];
    const all = [...users.values()].flat();
    const revoked = await refresh.revokedOf([
      ...new Set(all.map((s) => s.user!.sid).filter((x): x is string => Boolean(x))),
    ]);
    // The user records read afresh (the actor below may come from auth's short cache).
    const { rows } = await app.db.query<{ id: string; ok: boolean }>(
      `SELECT id::text AS id, (${app.users.staffWhere()}) AS ok FROM ${messenger.users.table} WHERE id = ANY($1::bigint[])`,
      [ids.map(Number)],
    );
    const ok = new Set(rows.filter((r) => r.ok).map((r) => r.id));
    for (const [userId, own] of users) {
      const allowed =
        ok.has(userId) &&
        (!withActor || Boolean((await messenger.counters.actorOf(userId))?.ability.can('read', MESSENGER_SUBJECT)));
      for (const s of own) {
        const user = s.user!;
        const reason =
          user.expiresAt !== undefined && user.expiresAt <= Date.now()
            ? TOKEN_EXPIRED
            : user.sid && revoked.has(user.sid)
              ? SESSION_REVOKED
              : !allowed
                ? ACCESS_WITHDRAWN
                : undefined;
        if (reason) {
          s.fail(reason);
          sessions.delete(s);
        }
      }
    }
  };

  const counters = async (users: Map<string, StompSession[]>) => {
    for (const [userId, own] of users) {
      const listening = own.filter((s) => s.user && sessions.has(s) && s.listens('notificationMsg'));
      if (!listening.length) continue;
      const now = JSON.stringify(await messenger.counters.of(userId));
      if (lastCounters.get(userId) === now) continue;
      lastCounters.set(userId, now);
      for (const s of listening) s.reply({ id: 0, userId, channel: 'notificationMsg', body: JSON.parse(now) });
    }
  };

  const pass = async () => {
    if (running) return;
    running = true;
    try {
      while (pending) {
        const only = pending;
        const withActor = signalled;
        pending = undefined;
        signalled = false;
        const users = byUser(only);
        await recheck(users, withActor);
        await counters(users);
        if (only === 'all')
          for (const userId of lastCounters.keys()) if (!users.has(userId)) lastCounters.delete(userId);
      }
    } catch (error) {
      app.log.error(error);
    } finally {
      running = false;
    }
  };

  const request = (signal: Signal, bySignal = true) => {
    if (signal.kind === 'changed' || pending === 'all') pending = 'all';
    else pending = new Set([...(pending ?? []), ...signal.userIds]);
    signalled ||= bySignal;
    void pass();
  };
  const stopSignals = messenger.broker.onSignal((signal) => request(signal));
  const poll = setInterval(() => request({ kind: 'changed' }, false), app.config.livePollMs ?? 15_000).unref();

  return {
    /** Remembers what a new subscriber to notificationMsg was sent (it gets the figures at once). */
    sent(userId: string, body: unknown) {
      lastCounters.set(userId, JSON.stringify(body));
    },
    close() {
      stopSignals();
      clearInterval(poll);
    },
  };
}
