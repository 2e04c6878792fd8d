import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import { createMessengerKit } from './kit.ts';
import chats from './chats.ts';
import messages from './messages.ts';
import groups from './groups.ts';
import photos from './photos.ts';
import unreadSummary from './unread-summary.ts';

/**
 * The staff messenger's REST side (spec §7 "Messenger"): contacts, direct and group chats,
 * messages with paging and search, send (with a file), edit, delete, reply, forward, read
 * state and unread counts. Every change is stored first, then published on the live socket
 * through the broker (services/messenger.ts). Users are the records of the access
 * definition's user entity; only staff (signed-in, not outer users) take part.
 */
const messenger: FastifyPluginAsync = async (app) => {
  // Forms with a file: this scope's own multipart parser (the files routes' is encapsulated).
  await app.register(multipart, { throwFileSizeLimit: true });
  const kit = createMessengerKit(app);
  await app.register(chats, kit);
  await app.register(messages, kit);
  await app.register(groups, kit);
  await app.register(photos, kit);
  await app.register(unreadSummary, kit);
};

export default messenger;
