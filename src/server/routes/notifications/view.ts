import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../auth/access.ts';
import type { NotificationRow } from '../../notify/inbox.ts';
import type { Locale } from '../../../shared/locales.ts';

/** One notification as the lists show it: rendered in the reader's language. */
export const notificationItem = {
  type: 'object',
  required: ['id', 'box', 'text', 'entity', 'recordId', 'link', 'recipient', 'createdAt', 'read'],
  properties: {
    id: { type: 'integer' },
    box: {
      type: 'string',
      enum: ['incoming', 'outgoing'],
      description: 'incoming: I am the recipient; outgoing: I sent it',
    },
    text: { type: 'string', description: 'The text in the reader’s language' },
    entity: { type: 'string' },
    recordId: { type: 'integer' },
    recordLabel: { type: 'string' },
    link: {
      type: ['string', 'null'],
      description: 'The record page, only when the reader may read the record (else null)',
    },
    sender: {
      type: ['object', 'null'],
      properties: { id: { type: 'string' }, name: { type: 'string' } },
      description: 'null: the system',
    },
    recipient: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
    createdAt: { type: 'string', format: 'date-time' },
    read: { type: 'boolean', description: 'Whether the recipient has read it' },
    readAt: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

/**
 * Renders stored notifications for one reader: the template in the reader's language (with
 * a workflow notice's state and event named in it), the people's names, and the record's
 * page only where the reader may read that record — the store decides, as for any read.
 */
export function createNotificationView(app: FastifyInstance) {
  const detailRoute = new Map<string, string>();
  // The staff's record page of each entity (a citizen's page only when there is no other).
  for (const screen of app.definitions.screens.values())
    if (screen.kind === 'detail' && screen.entity && screen.route.includes(':id'))
      if (!detailRoute.has(screen.entity) || screen.audience !== 'outer') detailRoute.set(screen.entity, screen.route);
  const users = app.users;

  const text = (locale: Locale, row: NotificationRow): string => {
    const params: Record<string, unknown> = { ...row.params };
    const workflow = row.params.workflow as { machine?: string; event?: string; state?: string } | undefined;
    if (workflow?.machine) {
      params.status = app.translator.t(locale, `workflow.${workflow.machine}.states.${workflow.state}`);
      params.event = app.translator.t(locale, `workflow.${workflow.machine}.events.${workflow.event}`);
    }
    return app.translator.t(locale, `${row.templateKey}.text`, params);
  };

  const readable = async (actor: Actor, rows: readonly NotificationRow[]): Promise<Set<string>> => {
    const ok = new Set<string>();
    const keys = new Map(rows.map((r) => [`${r.entity}/${r.recordId}`, r]));
    for (const [key, row] of keys) {
      if (!detailRoute.has(row.entity) || !app.definitions.entities.has(row.entity)) continue;
      try {
        await app.store.get(row.entity, row.recordId, actor);
        ok.add(key);
      } catch {
        // Not readable (or gone): the notice stays, without its link.
      }
    }
    return ok;
  };

  return async function view(actor: Actor, locale: Locale, rows: readonly NotificationRow[]) {
    const ids = [...new Set(rows.flatMap((r) => [r.recipientId, ...(r.senderId ? [r.senderId] : [])]))];
    const { rows: named } = ids.length
      ? await app.db.query<{ id: string; name: string }>(
          `SELECT u.id::text AS id, ${users.userNameSql('u')} AS name FROM ${users.table} u WHERE u.id = ANY($1::bigint[])`,
          [ids.map(Number)],
        )
      : { rows: [] };
    const name = new Map(named.map((n) => [n.id, n.name]));
    const links = await readable(actor, rows);
    return rows.map((row) => ({
      id: row.id,
      box: row.recipientId === actor.id ? 'incoming' : 'outgoing',
      text: text(locale, row),
      entity: row.entity,
      recordId: row.recordId,
      recordLabel: String(row.params.label ?? row.recordId),
      link: links.has(`${row.entity}/${row.recordId}`)
        ? detailRoute.get(row.entity)!.replace(':id', String(row.recordId))
        : null,
      sender: row.senderId ? { id: row.senderId, name: name.get(row.senderId) ?? '' } : null,
      recipient: { id: row.recipientId, name: name.get(row.recipientId) ?? '' },
      createdAt: row.createdAt,
      read: row.readAt !== null,
      readAt: row.readAt,
    }));
  };
}
