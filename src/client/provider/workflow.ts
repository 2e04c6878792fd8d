/**
 * The workflow methods of the data provider: what a record's status machine lets the user
 * do now, doing it, and the path the record took (`{base}/events|transition|history`).
 */
import type { JSONSchema7 } from 'json-schema';
import type { HttpClient } from '../http.ts';
import type { HistoryEntry } from '../../shared/workflow.ts';
import { apiBase, type StoredRecord } from './records.ts';

export type { HistoryEntry };

/** An event the server says the user may send now (`GET {base}/events/{id}`). */
export interface WorkflowEvent {
  type: string;
  target: string;
  description: string;
  /** The input the event asks for, if any (a form before it is sent). */
  payload?: JSONSchema7;
}

/** A stored field of the record that does not fit its schema now: every event is refused until it is corrected. */
export interface StoredFieldProblem {
  pointer: string;
  /** The field's label in the caller's language. */
  label: string;
  message: string;
}

/** The events offered now, with the stored fields that block every one of them (absent: none). */
export type OfferedEvents = WorkflowEvent[] & { problems?: StoredFieldProblem[] };

/** What a transition sends: the event, the version read, its input and a comment. */
export interface TransitionInput {
  event: string;
  version: number;
  payload?: Record<string, unknown>;
  comment?: string;
}

export interface WorkflowMethods {
  /** The events the user may send to the record in its status now. */
  getEvents(entity: string, id: number): Promise<OfferedEvents>;
  /** Sends an event; the answer is the record in its new status (409: not allowed now or stale). */
  transition(entity: string, id: number, input: TransitionInput): Promise<StoredRecord>;
  /** The record's status changes, oldest first (`GET {base}/history/{id}`). */
  getTransitions(entity: string, id: number): Promise<HistoryEntry[]>;
}

/** Creates the workflow methods over an HTTP client. */
export function createWorkflowMethods(http: HttpClient): WorkflowMethods {
  return {
    getEvents: async (entity, id) => {
      const answer = await http.request<{ events: WorkflowEvent[]; problems?: StoredFieldProblem[] }>(
        'GET',
        `${apiBase(entity)}/events/${id}`,
      );
      return answer.problems?.length ? Object.assign(answer.events, { problems: answer.problems }) : answer.events;
    },
    transition: (entity, id, input) => http.request('POST', `${apiBase(entity)}/transition/${id}`, { body: input }),
    getTransitions: async (entity, id) =>
      (await http.request<{ list: HistoryEntry[] }>('GET', `${apiBase(entity)}/history/${id}`)).list,
  };
}
