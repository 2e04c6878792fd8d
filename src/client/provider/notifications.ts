/**
 * The data provider's methods for in-app notifications (`/api/notifications`, docs/notifications.md):
 * the boxes, the bell's unread count, read marks and a note to colleagues about a record.
 */
import type { HttpClient } from '../http.ts';

/** all: received and sent; incoming: received; outgoing: sent. */
export type NotificationBox = 'all' | 'incoming' | 'outgoing';

/** One notification, rendered by the server in the reader's language. */
export interface NotificationItem {
  id: number;
  box: 'incoming' | 'outgoing';
  text: string;
  entity: string;
  recordId: number;
  recordLabel?: string;
  /** The record page, only when the reader may read the record. */
  link: string | null;
  /** null: the system. */
  sender: { id: string; name: string } | null;
  recipient: { id: string; name: string };
  createdAt: string;
  read: boolean;
  readAt?: string | null;
}

export interface NotificationMethods {
  /** A page of a box, newest first. @example await dp.listNotifications({ box: 'incoming', page: 1 }) */
  listNotifications(query: {
    box: NotificationBox;
    page: number;
    itemsPerPage?: number;
    unread?: boolean;
  }): Promise<{ list: NotificationItem[]; total: number }>;
  /** How many notifications the user has not read (the bell). */
  getUnreadNotificationCount(): Promise<{ count: number }>;
  /** Marks one received notification read; answers the new unread count. */
  markNotificationRead(id: number): Promise<{ count: number }>;
  /** Marks every received notification read. */
  markAllNotificationsRead(): Promise<{ count: number }>;
  /** Tells colleagues (staff user ids) about a record the user may read. */
  sendNotification(note: {
    entity: string;
    recordId: number;
    userIds: number[];
    message: string;
  }): Promise<{ notified: number }>;
}

/** Creates the notification methods over an HTTP client. */
export function createNotificationMethods(http: HttpClient): NotificationMethods {
  return {
    listNotifications: ({ box, page, itemsPerPage = 20, unread }) =>
      http.request(
        'GET',
        `/api/notifications?box=${box}&page=${page}&itemsPerPage=${itemsPerPage}${unread === undefined ? '' : `&unread=${unread}`}`,
      ),
    getUnreadNotificationCount: () => http.request('GET', '/api/notifications/unread-count'),
    markNotificationRead: (id) => http.request('POST', `/api/notifications/${id}/read`),
    markAllNotificationsRead: () => http.request('POST', '/api/notifications/read-all'),
    sendNotification: (note) => http.request('POST', '/api/notifications', { body: note }),
  };
}
