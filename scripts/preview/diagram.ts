/**
 * A status machine drawn as a self-contained SVG, with no library and no network: states as
 * boxes in rows by their distance from the initial state (unreachable ones last, marked),
 * transitions as arrows labelled with the event. Deliberately plain — a reviewer sees which
 * states and events a change adds or reroutes; docs/workflows/<id>.md keeps the Mermaid source.
 */
import type { MachineDefinition, Transition } from '../../src/generated/meta.ts';

/** The labels to print: a state's and an event's name in the chosen language (the id when absent). */
export interface DiagramLabels {
  state(id: string): string | undefined;
  event(id: string): string | undefined;
}

interface Edge {
  from: string;
  to: string;
  event: string;
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** A generous width estimate for 12 px sans-serif text, so labels never overflow their box. */
const textWidth = (s: string, px = 12): number => Math.ceil(s.length * px * 0.62);

/** The machine's transitions as edges (a transition without target stays in its state). */
export function machineEdges(machine: MachineDefinition): Edge[] {
  return Object.entries(machine.states).flatMap(([from, s]) =>
    Object.entries(s.on ?? {}).flatMap(([event, v]) =>
      (Array.isArray(v) ? v : [v]).map((t: Transition) => ({ from, to: t.target ?? from, event })),
    ),
  );
}

/**
 * The SVG of `machine`.
 * @example machineSvg(machine, { state: (s) => t(`workflow.appeal.states.${s}`), event: (e) => e })
 */
export function machineSvg(machine: MachineDefinition, labels: DiagramLabels): string {
  const edges = machineEdges(machine);
  const states = Object.keys(machine.states);
  // Rows by breadth-first distance from the initial state.
  const depth = new Map<string, number>([[machine.initial, 0]]);
  const queue = [machine.initial];
  while (queue.length) {
    const s = queue.shift()!;
    for (const e of edges)
      if (e.from === s && !depth.has(e.to)) {
        depth.set(e.to, depth.get(s)! + 1);
        queue.push(e.to);
      }
  }
  const deepest = Math.max(0, ...depth.values());
  const unreachable = states.filter((s) => !depth.has(s));
  for (const s of unreachable) depth.set(s, deepest + 1);
  const rows: string[][] = [];
  for (const s of states) (rows[depth.get(s)!] ??= []).push(s);

  const boxH = 44;
  const rowGap = 90;
  const colGap = 40;
  const margin = 30;
  const widthOf = (s: string): number => Math.max(textWidth(s, 11), textWidth(labels.state(s) ?? '', 13)) + 28;
  const rowWidth = (row: string[]): number => row.reduce((w, s) => w + widthOf(s), 0) + colGap * (row.length - 1);
  const width = Math.max(...rows.map((r) => rowWidth(r ?? []))) + margin * 2 + 160;
  const pos = new Map<string, { x: number; y: number; w: number }>();
  rows.forEach((row, i) => {
    let x = (width - rowWidth(row)) / 2;
    for (const s of row) {
      pos.set(s, { x, y: margin + 30 + i * (boxH + rowGap), w: widthOf(s) });
      x += widthOf(s) + colGap;
    }
  });
  const height = margin * 2 + 30 + rows.length * (boxH + rowGap);

  const parts: string[] = [];
  const start = pos.get(machine.initial)!;
  parts.push(`<circle cx="${start.x + start.w / 2}" cy="${margin + 6}" r="6" fill="#333"/>`);
  parts.push(
    `<line x1="${start.x + start.w / 2}" y1="${margin + 12}" x2="${start.x + start.w / 2}" y2="${start.y - 2}" stroke="#333" marker-end="url(#arrow)"/>`,
  );
  // Parallel edges between the same two states fan out so that their labels do not overlap.
  const seen = new Map<string, number>();
  const labelsOut: string[] = [];
  for (const e of edges) {
    const a = pos.get(e.from)!;
    const b = pos.get(e.to);
    if (!b) continue;
    const key = [e.from, e.to].sort().join('→');
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const spread = (n % 2 ? 1 : -1) * Math.ceil(n / 2) * 26;
    const text = labels.event(e.event) ?? e.event;
    let d: string;
    let lx: number;
    let ly: number;
    if (e.from === e.to) {
      const x = a.x + a.w;
      const y = a.y + boxH / 2;
      d = `M ${x} ${y - 10} C ${x + 50} ${y - 40}, ${x + 50} ${y + 40}, ${x} ${y + 10}`;
      lx = x + 40 + textWidth(text) / 2;
      ly = y + spread;
    } else if (b.y > a.y) {
      const x1 = a.x + a.w / 2 + spread / 2;
      const y1 = a.y + boxH;
      const x2 = b.x + b.w / 2 + spread / 2;
      const y2 = b.y;
      const my = (y1 + y2) / 2;
      d = `M ${x1} ${y1} C ${x1} ${my}, ${x2} ${my}, ${x2} ${y2 - 2}`;
      lx = (x1 + x2) / 2 + spread;
      ly = my + (spread ? spread / 3 : 0);
    } else {
      // Back or sideways: leave from the side, bow out, come in from the side.
      const right = b.x >= a.x;
      const x1 = right ? a.x + a.w : a.x;
      const x2 = right ? b.x + b.w : b.x;
      const y1 = a.y + boxH / 2;
      const y2 = b.y + boxH / 2;
      const bow = (right ? 1 : -1) * (60 + Math.abs(spread));
      d = `M ${x1} ${y1} C ${x1 + bow} ${y1}, ${x2 + bow} ${y2}, ${x2 + (right ? 2 : -2)} ${y2}`;
      lx = (x1 + x2) / 2 + bow * 0.75;
      ly = (y1 + y2) / 2;
    }
    parts.push(`<path d="${d}" fill="none" stroke="#6b6b6b" stroke-width="1.3" marker-end="url(#arrow)"/>`);
    const tw = textWidth(text, 11) + 8;
    labelsOut.push(
      `<g data-event="${esc(e.event)}"><rect x="${lx - tw / 2}" y="${ly - 9}" width="${tw}" height="16" rx="3" fill="#fff" fill-opacity="0.92"/><text x="${lx}" y="${ly + 3}" font-size="11" text-anchor="middle" fill="#0f548c">${esc(text)}</text></g>`,
    );
  }
  for (const [s, p] of pos) {
    const final = machine.states[s]?.type === 'final';
    const lost = unreachable.includes(s);
    parts.push(
      `<g data-state="${esc(s)}"><rect x="${p.x}" y="${p.y}" width="${p.w}" height="${boxH}" rx="10" fill="${lost ? '#fde7e9' : '#f3f9fd'}" stroke="${lost ? '#c50f1f' : '#0f6cbd'}" stroke-width="${final ? 3 : 1.5}"${lost ? ' stroke-dasharray="5 3"' : ''}/>` +
        `<text x="${p.x + p.w / 2}" y="${p.y + 18}" font-size="13" font-weight="600" text-anchor="middle" fill="#242424">${esc(labels.state(s) ?? s)}</text>` +
        `<text x="${p.x + p.w / 2}" y="${p.y + 34}" font-size="11" text-anchor="middle" fill="#616161" font-family="monospace">${esc(s)}${lost ? ' · unreachable' : ''}</text></g>`,
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="Segoe UI, Helvetica, Arial, sans-serif" data-machine="${esc(machine.id)}">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#6b6b6b"/></marker></defs>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...parts,
    ...labelsOut,
    '</svg>',
  ].join('\n');
}
