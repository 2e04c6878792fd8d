/**
 * A STOMP 1.2 frame codec (https://stomp.github.io/stomp-specification-1.2.html), small on
 * purpose: the maintained STOMP libraries for Node are clients (@stomp/stompjs); the server
 * side ones are unmaintained brokers, so the server owns only this codec.
 */
export interface Frame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

const NUL = '\0';
// CONNECT and CONNECTED frames do not escape header values (spec §"Value Encoding").
const RAW_HEADER_COMMANDS = new Set(['CONNECT', 'CONNECTED']);

const escape = (s: string): string =>
  s.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/:/g, '\\c');

function unescape(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => {
    if (c === 'n') return '\n';
    if (c === 'r') return '\r';
    if (c === 'c') return ':';
    if (c === '\\') return '\\';
    throw new FrameError(`undefined escape sequence \\${c}`);
  });
}

export class FrameError extends Error {}

/** One frame as text; `content-length` is set for every body (so bodies may hold NUL). */
export function encodeFrame(frame: Frame): string {
  const raw = RAW_HEADER_COMMANDS.has(frame.command);
  const headers = { ...frame.headers };
  if (frame.body) headers['content-length'] = String(Buffer.byteLength(frame.body));
  const lines = Object.entries(headers).map(([k, v]) => (raw ? `${k}:${v}` : `${escape(k)}:${escape(v)}`));
  return `${frame.command}\n${lines.map((l) => `${l}\n`).join('')}\n${frame.body}${NUL}`;
}

/**
 * Splits incoming text into frames. WebSocket messages normally carry whole frames, but a
 * message may hold several, or (from some clients) part of one: the rest waits for the next
 * message. Bare end-of-lines between frames are heart-beats and are counted, not returned.
 */
export class FrameParser {
  private buffer = '';
  /** Frames larger than this close the connection (bytes of one frame). */
  constructor(private readonly maxFrame = 1024 * 1024) {}

  push(chunk: string): { frames: Frame[]; heartbeats: number } {
    this.buffer += chunk;
    const frames: Frame[] = [];
    let heartbeats = 0;
    for (;;) {
      // Heart-beats: EOLs before a frame.
      let start = 0;
      while (
        start < this.buffer.length &&
        (this.buffer[start] === '\n' || (this.buffer[start] === '\r' && this.buffer[start + 1] === '\n'))
      ) {
        start += this.buffer[start] === '\r' ? 2 : 1;
        heartbeats++;
      }
      this.buffer = this.buffer.slice(start);
      if (!this.buffer) break;
      const headEnd = this.buffer.search(/\r?\n\r?\n/);
      if (headEnd < 0) {
        if (this.buffer.length > this.maxFrame) throw new FrameError('frame too large');
        break;
      }
      const sep = this.buffer.slice(headEnd).match(/^\r?\n\r?\n/)![0].length;
      const headLines = this.buffer.slice(0, headEnd).split(/\r?\n/);
      const command = headLines.shift()!;
      if (!/^[A-Z]+$/.test(command)) throw new FrameError(`bad command ${JSON.stringify(command.slice(0, 20))}`);
      const raw = RAW_HEADER_COMMANDS.has(command);
      const headers: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const line of headLines) {
        const colon = line.indexOf(':');
        if (colon < 1) throw new FrameError('bad header line');
        const key = raw ? line.slice(0, colon) : unescape(line.slice(0, colon));
        // Repeated headers: the first one counts (spec §"Repeated Header Entries").
        if (!Object.hasOwn(headers, key)) headers[key] = raw ? line.slice(colon + 1) : unescape(line.slice(colon + 1));
      }
      const bodyStart = headEnd + sep;
      let bodyEnd: number;
      if (headers['content-length'] !== undefined) {
        const bytes = Number(headers['content-length']);
        if (!Number.isInteger(bytes) || bytes < 0 || bytes > this.maxFrame) throw new FrameError('bad content-length');
        // Lengths are bytes; the buffer holds text: walk characters until the byte count is reached.
        const rest = Buffer.from(this.buffer.slice(bodyStart));
        if (rest.length < bytes + 1) break;
        if (rest[bytes] !== 0) throw new FrameError('frame not terminated by NUL');
        const body = rest.subarray(0, bytes).toString();
        bodyEnd = bodyStart + body.length;
      } else {
        bodyEnd = this.buffer.indexOf(NUL, bodyStart);
        if (bodyEnd < 0) {
          if (this.buffer.length > this.maxFrame) throw new FrameError('frame too large');
          break;
        }
      }
      frames.push({ command, headers, body: this.buffer.slice(bodyStart, bodyEnd) });
      this.buffer = this.buffer.slice(bodyEnd + 1);
    }
    return { frames, heartbeats };
  }
}
