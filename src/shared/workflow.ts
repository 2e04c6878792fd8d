/** The workflow contract shared by the server (src/server/workflow) and the engine's transition bar. */

/** One status change, as `GET history` lists it. */
export interface HistoryEntry {
  id: number;
  at: string;
  actor: string | null;
  /** The actor's name as the user entity holds it (last and first name, else the username). */
  actorName: string | null;
  event: string;
  from: string;
  to: string;
  payload: Record<string, unknown>;
  comment: string | null;
  machine: string;
  machineVersion: number;
}
