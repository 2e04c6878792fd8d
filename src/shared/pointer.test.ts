import { describe, expect, it } from 'vitest';
import {
  escapeSegment,
  getAtPointer,
  objectAt,
  pointerSegments,
  setAt,
  sqlJson,
  sqlPath,
  sqlText,
  toPointer,
  unescapeSegment,
  valueAt,
} from './pointer.ts';

describe('JSON pointer segments', () => {
  it('escapes ~ before / and unescapes in the reverse order (RFC 6901)', () => {
    expect(escapeSegment('a/b~c')).toBe('a~1b~0c');
    expect(unescapeSegment('a~1b~0c')).toBe('a/b~c');
    expect(unescapeSegment('~01')).toBe('~1');
  });

  it('round-trips hostile segments through a pointer', () => {
    const segments = ['a/b', '~1', '~', '', "it's", 'x,y', '{}', '"q"', 'back\\slash', 'NULL', ' lead'];
    expect(pointerSegments(toPointer(segments))).toEqual(segments);
    expect(toPointer(['participants', 0, 'name'])).toBe('/participants/0/name');
    expect(pointerSegments('')).toEqual([]);
  });
});

describe('reading and writing', () => {
  const record = { customer: { pnfl: '1', 'a/b': 2 }, list: [{ name: 'x' }] };

  it('valueAt follows objects only, as record fields are addressed', () => {
    expect(valueAt(record, '/customer/pnfl')).toBe('1');
    expect(valueAt(record, '/customer/a~1b')).toBe(2);
    expect(valueAt(record, '/list/0/name')).toBeUndefined();
    expect(valueAt(record, '/missing/deeper')).toBeUndefined();
    expect(valueAt(record, '')).toBe(record);
  });

  it('getAtPointer also follows array indexes', () => {
    expect(getAtPointer(record, '/list/0/name')).toBe('x');
    expect(getAtPointer(record, '/customer/pnfl/0')).toBeUndefined();
    expect(getAtPointer(null, '/a')).toBeUndefined();
  });

  it('setAt creates the objects on the way, objectAt returns the holder', () => {
    const data: Record<string, unknown> = { a: null };
    setAt(data, '/a/b/c', 1);
    setAt(data, '/x~1y', 2);
    expect(data).toEqual({ a: { b: { c: 1 } }, 'x/y': 2 });
    expect(objectAt(data, '/a/b')).toBe((data.a as Record<string, Record<string, unknown>>).b);
    expect(() => setAt(data, '', 1)).toThrow();
  });
});

describe('the SQL path', () => {
  it('writes plain segments bare', () => {
    expect(sqlPath('/pharmacy/stir')).toBe("'{pharmacy,stir}'");
    expect(sqlText('/pharmacy/stir')).toBe("(data #>> '{pharmacy,stir}')");
    expect(sqlText('/unit', 'card.data')).toBe("(card.data #>> '{unit}')");
    expect(sqlJson('/permissions')).toBe("(data #> '{permissions}')");
  });

  it('quotes what would change the array: delimiters, quotes, backslashes, spaces, empty and NULL', () => {
    expect(sqlPath('/a,b/c')).toBe(`'{"a,b",c}'`);
    expect(sqlPath('/{x}')).toBe(`'{"{x}"}'`);
    expect(sqlPath('/say "hi"')).toBe(`'{"say \\"hi\\""}'`);
    expect(sqlPath('/back\\slash')).toBe(`'{"back\\\\slash"}'`);
    expect(sqlPath('/a b')).toBe(`'{"a b"}'`);
    expect(sqlPath('/')).toBe(`'{""}'`);
    expect(sqlPath('/null')).toBe(`'{"null"}'`);
    expect(sqlPath('/a~1b')).toBe("'{a/b}'");
  });

  it("doubles ' so no segment ends the SQL literal", () => {
    const path = sqlPath("/x'); DROP TABLE t; --");
    expect(path).toBe(`'{"x''); DROP TABLE t; --"}'`);
    // Inside the outer quotes every ' is doubled: the literal ends only at the last character.
    expect(path.slice(1, -1).replace(/''/g, '')).not.toContain("'");
  });
});
