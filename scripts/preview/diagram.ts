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
  const colGap = 40;
  const margin = 30;
  const lineH = 18;
  const widthOf = (s: string): number => Math.max(textWidth(s, 11), textWidth(labels.state(s) ?? '', 13)) + 28;
  const rowWidth = (row: string[]): number => row.reduce((w, s) => w + widthOf(s), 0) + colGap * (row.length - 1);
  const layerOf = (s: string): number => depth.get(s)!;
  // Each edge's label sits in the gap below its source's row, at the middle of its way; labels
  // of one gap are packed on lines so that none overlaps another.
  const edgeText = (e: Edge): string => labels.event(e.event) ?? e.event;
  const inner = Math.max(...rows.map((r) => rowWidth(r ?? [])));
  const width = Math.max(inner, ...edges.map((e) => textWidth(edgeText(e), 11) + 40)) + margin * 2 + 120;
  const xs = new Map<string, number>();
  rows.forEach((row) => {
    let x = (width - rowWidth(row)) / 2;
    for (const s of row) {
      xs.set(s, x);
      x += widthOf(s) + colGap;
    }
  });
  const center = (s: string): number => xs.get(s)! + widthOf(s) / 2;
  const placed = new Map<Edge, { line: number; x: number; w: number }>();
  const linesIn: number[] = rows.map(() => 0);
  rows.forEach((_, i) => {
    const here = edges
      .filter((e) => layerOf(e.from) === i && xs.has(e.to))
      .map((e) => ({ e, w: textWidth(edgeText(e), 11) + 10, want: (center(e.from) + center(e.to)) / 2 }))
      .sort((a, b) => a.want - b.want);
    const ends: number[] = [];
    for (const { e, w, want } of here) {
      let left = Math.min(Math.max(margin, want - w / 2), width - margin - w);
      let line = ends.findIndex((end) => end + 6 <= left);
      if (line < 0 && ends.length < 6) line = ends.push(-Infinity) - 1;
      if (line < 0) {
        line = ends.indexOf(Math.min(...ends));
        left = ends[line]! + 6;
      }
      ends[line] = left + w;
      placed.set(e, { line, x: left + w / 2, w });
    }
    linesIn[i] = ends.length;
  });
  const ys: number[] = [];
  let y = margin + 30;
  rows.forEach((_, i) => {
    ys[i] = y;
    y += boxH + 36 + linesIn[i]! * lineH + 36;
  });
  const height = y + margin;
  const pos = new Map<string, { x: number; y: number; w: number }>();
  for (const s of states) pos.set(s, { x: xs.get(s)!, y: ys[layerOf(s)]!, w: widthOf(s) });

  const parts: string[] = [];
  const start = pos.get(machine.initial)!;
  parts.push(`<circle cx="${start.x + start.w / 2}" cy="${margin + 6}" r="6" fill="#333"/>`);
  parts.push(
    `<line x1="${start.x + start.w / 2}" y1="${margin + 12}" x2="${start.x + start.w / 2}" y2="${start.y - 2}" stroke="#333" marker-end="url(#arrow)"/>`,
  );
  // Where edges leave and enter a box: spread along its bottom and top edges.
  const outs = new Map<string, Edge[]>();
  const ins = new Map<string, Edge[]>();
  for (const e of edges) {
    if (!placed.has(e)) continue;
    (outs.get(e.from) ?? outs.set(e.from, []).get(e.from)!).push(e);
    (ins.get(e.to) ?? ins.set(e.to, []).get(e.to)!).push(e);
  }
  const along = (s: string, list: Edge[], e: Edge): number => {
    const p = pos.get(s)!;
    return p.x + (p.w * (list.indexOf(e) + 1)) / (list.length + 1);
  };
  const labelsOut: string[] = [];
  for (const e of edges) {
    const at = placed.get(e);
    if (!at) continue;
    const a = pos.get(e.from)!;
    const b = pos.get(e.to)!;
    const text = edgeText(e);
    const lx = at.x;
    const ly = a.y + boxH + 36 + at.line * lineH + lineH / 2;
    const x1 = along(e.from, outs.get(e.from)!, e);
    const y1 = a.y + boxH;
    let tail: string;
    if (b.y > a.y) {
      const x2 = along(e.to, ins.get(e.to)!, e);
      tail = `C ${lx} ${ly + 30}, ${x2} ${b.y - 30}, ${x2} ${b.y - 2}`;
    } else {
      // Back, sideways or to itself: from the label round the side of the target box.
      const right = lx >= b.x + b.w / 2;
      const x2 = right ? b.x + b.w + 2 : b.x - 2;
      const bow = right ? 50 : -50;
      tail = `C ${lx + bow} ${ly}, ${x2 + bow} ${b.y + boxH / 2}, ${x2} ${b.y + boxH / 2}`;
    }
    parts.push(
      `<path d="M ${x1} ${y1} C ${x1} ${y1 + 20}, ${lx} ${ly - 20}, ${lx} ${ly} ${tail}" fill="none" stroke="#8a8a8a" stroke-width="1.2" marker-end="url(#arrow)"/>`,
    );
    labelsOut.push(
      `<g data-event="${esc(e.event)}"><rect x="${lx - at.w / 2}" y="${ly - 8}" width="${at.w}" height="16" rx="3" fill="#fff" stroke="#c7e0f4"/><text x="${lx}" y="${ly + 4}" font-size="11" text-anchor="middle" fill="#0f548c">${esc(text)}</text></g>`,
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
