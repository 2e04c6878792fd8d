/**
 * Changes of a status machine: states and events added or removed, transitions that now go
 * elsewhere, guards that changed, the initial state.
 */
import { escapeSegment } from '../../shared/pointer.ts';
import { asNode, type DefinitionChange } from './change.ts';

interface Transition {
  target: string | undefined;
  guard: string | undefined;
}

/** Each event of a state with its transitions (one, or several guarded ones). */
function eventsOf(state: Record<string, unknown> | undefined): Map<string, Transition[]> {
  const out = new Map<string, Transition[]>();
  for (const [event, value] of Object.entries(asNode(state?.on) ?? {})) {
    const list = (Array.isArray(value) ? value : [value]).map(asNode).filter((t) => t !== undefined);
    out.set(
      event,
      list.map((t) => ({
        target: typeof t.target === 'string' ? t.target : undefined,
        guard: t.guard === undefined ? undefined : guardWords(t.guard),
      })),
    );
  }
  return out;
}

/**
 * A named guard in words: its type and its parameters.
 * @example guardWords({ type: 'fieldsFilled', params: { fields: ['/a', '/b'] } }) // 'fieldsFilled (fields /a, /b)'
 */
function guardWords(guard: unknown): string {
  const g = asNode(guard);
  if (!g || typeof g.type !== 'string') return JSON.stringify(guard);
  const params = Object.entries(asNode(g.params) ?? {}).map(
    ([k, v]) =>
      `${k} ${Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ') : typeof v === 'string' ? v : JSON.stringify(v)}`,
  );
  return params.length ? `${g.type} (${params.join('; ')})` : g.type;
}

const targets = (ts: Transition[]): string => ts.map((t) => t.target ?? '(stays)').join(' or ');
const guardText = (g: string | undefined): string => g ?? 'none';

/**
 * The changes between two versions of one machine file (either may be absent: the machine
 * was added or removed), listed under `group`.
 * @example machineChanges('tender', 'workflows/tender.machine.json', oldJson, newJson)
 */
export function machineChanges(group: string, file: string, base: unknown, head: unknown): DefinitionChange[] {
  const b = asNode(base);
  const h = asNode(head);
  const id = file.replace(/^workflows\//, '').replace(/\.machine\.json$/, '');
  const out: DefinitionChange[] = [];
  const add = (c: Omit<DefinitionChange, 'group' | 'file'>) => out.push({ group, file, ...c });
  if (!b && !h) return out;
  if (!b || !h) {
    add({
      kind: b ? 'machine-removed' : 'machine-added',
      pointer: '',
      breaking: !!b,
      text: b ? `machine ${id} removed` : `machine ${id} added`,
    });
    return out;
  }
  if (b.initial !== h.initial)
    add({
      kind: 'initial-changed',
      pointer: '/initial',
      breaking: false,
      text: `new records now start in ${String(h.initial)} (was ${String(b.initial)})`,
    });
  const bStates = asNode(b.states) ?? {};
  const hStates = asNode(h.states) ?? {};
  for (const state of Object.keys(bStates))
    if (!(state in hStates))
      add({
        kind: 'state-removed',
        pointer: `/states/${escapeSegment(state)}`,
        breaking: true,
        text: `state ${state} removed (records stored in it are stranded)`,
      });
  for (const state of Object.keys(hStates))
    if (!(state in bStates))
      add({
        kind: 'state-added',
        pointer: `/states/${escapeSegment(state)}`,
        breaking: false,
        text: `state ${state} added`,
      });
  for (const [state, hState] of Object.entries(hStates)) {
    if (!(state in bStates)) continue;
    const was = eventsOf(asNode(bStates[state]));
    const now = eventsOf(asNode(hState));
    const at = (event: string) => `/states/${escapeSegment(state)}/on/${escapeSegment(event)}`;
    for (const [event, ts] of was)
      if (!now.has(event))
        add({
          kind: 'event-removed',
          pointer: at(event),
          breaking: false,
          text: `event ${event} removed from ${state} (it went to ${targets(ts)})`,
        });
    for (const [event, ts] of now) {
      const before = was.get(event);
      if (!before) {
        add({
          kind: 'event-added',
          pointer: at(event),
          breaking: false,
          text: `event ${event} added: ${state} → ${targets(ts)}`,
        });
        continue;
      }
      if (targets(before) !== targets(ts))
        add({
          kind: 'transition-retargeted',
          pointer: at(event),
          breaking: false,
          text: `event ${event} from ${state} now goes to ${targets(ts)} (was ${targets(before)})`,
        });
      const guardsBefore = before.map((t) => guardText(t.guard)).join(' | ');
      const guardsNow = ts.map((t) => guardText(t.guard)).join(' | ');
      if (guardsBefore !== guardsNow)
        add({
          kind: 'guard-changed',
          pointer: at(event),
          breaking: false,
          text: `event ${event} from ${state}: guard changed from ${guardsBefore} to ${guardsNow}`,
        });
    }
  }
  return out;
}
