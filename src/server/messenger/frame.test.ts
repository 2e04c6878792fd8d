import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeFrame, FrameError, FrameParser } from './frame.ts';

describe('STOMP 1.2 frame codec', () => {
  it('round-trips any frame, header values with colons, newlines and backslashes included', () => {
    const header = fc.string({ minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(
        fc.constantFrom('SEND', 'MESSAGE', 'SUBSCRIBE', 'ERROR'),
        fc.dictionary(
          header.filter((k) => k !== 'content-length'),
          fc.string({ maxLength: 30 }),
        ),
        fc.string({ maxLength: 200 }),
        (command, headers, body) => {
          const parsed = new FrameParser().push(encodeFrame({ command, headers, body }));
          expect(parsed.frames).toHaveLength(1);
          const { ['content-length']: _len, ...rest } = parsed.frames[0]!.headers;
          expect(parsed.frames[0]).toMatchObject({ command, body });
          expect(rest).toEqual(headers);
        },
      ),
    );
  });

  it('keeps headers named like Object.prototype members (constructor, __proto__, toString)', () => {
    // JSON.parse makes `__proto__` an own property, as a header read off the wire is.
    const headers = JSON.parse('{"constructor": "", "__proto__": "x", "toString": "y"}') as Record<string, string>;
    const frame = new FrameParser().push(encodeFrame({ command: 'SEND', headers, body: '' })).frames[0]!;
    expect(Object.hasOwn(frame.headers, 'constructor')).toBe(true);
    expect(frame.headers.constructor).toBe('');
    expect(Object.hasOwn(frame.headers, '__proto__')).toBe(true);
    expect(frame.headers.toString).toBe('y');
  });

  it('reads several frames in one chunk, a frame split over chunks, and counts heart-beats', () => {
    const parser = new FrameParser();
    const two =
      encodeFrame({ command: 'SEND', headers: { destination: '/app/a' }, body: 'Салом' }) +
      '\n\n' +
      encodeFrame({ command: 'ACK', headers: { id: '7' }, body: '' });
    const first = parser.push(two.slice(0, 30));
    expect(first.frames).toEqual([]);
    const rest = parser.push(two.slice(30));
    expect(rest.frames.map((f) => f.command)).toEqual(['SEND', 'ACK']);
    expect(rest.frames[0]!.body).toBe('Салом');
    expect(rest.heartbeats).toBe(2);
    expect(parser.push('\r\n\n').heartbeats).toBe(2);
  });

  it('keeps a body with NUL when content-length says so; repeated headers: the first wins', () => {
    const parser = new FrameParser();
    const { frames } = parser.push('SEND\ndestination:/a\ndestination:/b\ncontent-length:3\n\na\0b\0');
    expect(frames[0]).toEqual({ command: 'SEND', headers: { destination: '/a', 'content-length': '3' }, body: 'a\0b' });
  });

  it('does not escape CONNECT headers, and rejects malformed input', () => {
    expect(new FrameParser().push('CONNECT\npasscode:a:b\\c\n\n\0').frames[0]!.headers.passcode).toBe('a:b\\c');
    expect(() => new FrameParser().push('SEND\nbad\\xheader:1\n\n\0')).toThrow(FrameError);
    expect(() => new FrameParser().push('send lower\n\n\0')).toThrow(FrameError);
    expect(() => new FrameParser(100).push('SEND\n' + 'a:'.padEnd(200, 'x'))).toThrow(FrameError);
  });
});
