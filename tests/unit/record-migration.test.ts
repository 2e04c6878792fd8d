/**
 * The record-migration executor step by step (src/server/evolution/steps.ts) and the split of
 * the fields a schema no longer knows (kept-aside.ts): no stored value is lost unless a step
 * says so.
 */
import { describe, expect, it } from 'vitest';
import type { JSONSchema7 } from 'json-schema';
import type { MigrationStep } from '../../src/generated/meta.ts';
import { applySteps } from '../../src/server/evolution/steps.ts';
import { splitKeptAside, withKeptAside } from '../../src/server/evolution/kept-aside.ts';

describe('record migration steps', () => {
  it('rename moves the value and leaves the rest', () => {
    const before = { director: 'Ali Valiyev', name: 'X' };
    expect(applySteps(before, [{ op: 'rename', from: '/director', to: '/directorName' }])).toEqual({
      directorName: 'Ali Valiyev',
      name: 'X',
    });
    expect(before).toEqual({ director: 'Ali Valiyev', name: 'X' });
  });

  it('rename of an absent field changes nothing; a filled target keeps both values', () => {
    expect(applySteps({ name: 'X' }, [{ op: 'rename', from: '/director', to: '/directorName' }])).toEqual({
      name: 'X',
    });
    expect(applySteps({ a: 1, b: 2 }, [{ op: 'rename', from: '/a', to: '/b' }])).toEqual({ a: 1, b: 2 });
  });

  it('move goes into a nested object, creating it', () => {
    expect(applySteps({ bank: 'B' }, [{ op: 'move', from: '/bank', to: '/account/bank' }])).toEqual({
      account: { bank: 'B' },
    });
  });

  it('remove drops the field on purpose', () => {
    expect(applySteps({ fax: '+998', name: 'X' }, [{ op: 'remove', path: '/fax' }])).toEqual({ name: 'X' });
  });

  it('default fills only an absent or null value', () => {
    const step: MigrationStep = { op: 'default', path: '/x', value: 0 };
    expect(applySteps({}, [step])).toEqual({ x: 0 });
    expect(applySteps({ x: null }, [step])).toEqual({ x: 0 });
    expect(applySteps({ x: 5 }, [step])).toEqual({ x: 5 });
  });

  it('mapValues maps listed values (in arrays too) and keeps the others', () => {
    const step: MigrationStep = { op: 'mapValues', path: '/s', map: { OLD: 'NEW' } };
    expect(applySteps({ s: 'OLD' }, [step])).toEqual({ s: 'NEW' });
    expect(applySteps({ s: 'OTHER' }, [step])).toEqual({ s: 'OTHER' });
    expect(applySteps({ s: ['OLD', 'X'] }, [step])).toEqual({ s: ['NEW', 'X'] });
    expect(applySteps({}, [step])).toEqual({});
  });

  it('split cuts a text; the last part takes the rest', () => {
    const step: MigrationStep = { op: 'split', from: '/fullName', to: ['/lastName', '/firstName'], separator: ' ' };
    expect(applySteps({ fullName: 'Valiyev Ali Karim' }, [step])).toEqual({
      lastName: 'Valiyev',
      firstName: 'Ali Karim',
    });
    expect(applySteps({ fullName: 'Valiyev' }, [step])).toEqual({ lastName: 'Valiyev' });
    // A filled target: nothing moves, nothing is lost.
    expect(applySteps({ fullName: 'A B', lastName: 'C' }, [step])).toEqual({ fullName: 'A B', lastName: 'C' });
  });

  it('join puts texts together, skipping empty ones', () => {
    const step: MigrationStep = { op: 'join', from: ['/lastName', '/firstName'], to: '/fullName', separator: ' ' };
    expect(applySteps({ lastName: 'Valiyev', firstName: 'Ali' }, [step])).toEqual({ fullName: 'Valiyev Ali' });
    expect(applySteps({ lastName: 'Valiyev' }, [step])).toEqual({ fullName: 'Valiyev' });
    expect(applySteps({ x: 1 }, [step])).toEqual({ x: 1 });
  });

  it('script runs the named module on a copy', () => {
    const scripts = new Map([['./3.ts', (d: Record<string, unknown>) => ({ ...d, n: Number(d.n) * 2 })]]);
    expect(applySteps({ n: 2 }, [{ op: 'script', module: './3.ts' }], scripts)).toEqual({ n: 4 });
    expect(() => applySteps({}, [{ op: 'script', module: './4.ts' }], scripts)).toThrow(/not loaded/);
  });

  it('steps run in order', () => {
    expect(
      applySteps({ a: 'OLD' }, [
        { op: 'rename', from: '/a', to: '/b' },
        { op: 'mapValues', path: '/b', map: { OLD: 'NEW' } },
      ]),
    ).toEqual({ b: 'NEW' });
  });
});

describe('fields kept aside', () => {
  const schema: JSONSchema7 = {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: { type: 'string' },
      bank: { type: 'object', additionalProperties: false, properties: { mfo: { type: 'string' } } },
      founders: {
        type: 'array',
        items: { type: 'object', additionalProperties: false, properties: { stir: { type: 'string' } } },
      },
      open: { type: 'object' },
    },
  };

  it('takes out what the schema does not know, at any depth, and keeps it by pointer', () => {
    const { data, kept } = splitKeptAside(schema, {
      name: 'X',
      director: 'A',
      bank: { mfo: '1', swift: 'S' },
      founders: [{ stir: '1', share: 5 }],
      open: { anything: 1 },
    });
    expect(data).toEqual({ name: 'X', bank: { mfo: '1' }, founders: [{ stir: '1' }], open: { anything: 1 } });
    expect(kept).toEqual({ '/director': 'A', '/bank/swift': 'S', '/founders/0/share': 5 });
  });

  it('puts kept fields back for a migration, except where the data has filled the place', () => {
    expect(withKeptAside({ name: 'X' }, { '/director': 'A', '/name': 'Y' })).toEqual({
      data: { name: 'X', director: 'A' },
      left: { '/name': 'Y' },
    });
  });
});
