/**
 * The data provider's method of the `order` capability: move a record to a place of its
 * group, or of another group (`PUT {base}/order/{id}`, docs/boards.md).
 */
import type { HttpClient } from '../http.ts';
import { apiBase } from './records.ts';

/** Where a record goes: the group (absent: its own), the place from 0, and the version read. */
export interface MoveInput {
  group?: string | number | null;
  index: number;
  version: number;
}

/** One record's place after a move (the reply, and a 409's `details.order`). */
export interface OrderEntry {
  id: number;
  group: string | number | null;
  position: number;
  version: number;
}

export interface OrderMethods {
  /**
   * Moves the record; answers the new places (and versions) of the groups it touched. A stale
   * version is refused with 409, whose body's `details.order` is the current order.
   * @example await dp.moveRecord('project-task-card', 7, { group: 3, index: 0, version: 2 })
   */
  moveRecord(entity: string, id: number, input: MoveInput): Promise<{ order: OrderEntry[] }>;
}

/** Creates the order method over an HTTP client. */
export function createOrderMethods(http: HttpClient): OrderMethods {
  return {
    moveRecord: (entity, id, input) => http.request('PUT', `${apiBase(entity)}/order/${id}`, { body: input }),
  };
}
