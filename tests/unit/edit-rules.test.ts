/**
 * The shared evaluation of edit rules (src/shared/edit-rules.ts) on small hand-made rules: the
 * rule set of a status (named, "*", final), whom each `who` fits, what a grant allows (objects,
 * exceptions, field sets), and the changed fields of an update; plus the written document.
 */
import { describe, expect, it } from 'vitest';
import { editRightsOf, fits, mayChange, ruleSetFor, statesOf } from '../../src/shared/edit-rules.ts';
import { changedPointers } from '../../src/shared/json-diff.ts';
import type { EditRules } from '../../src/generated/meta.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { renderEditRulesDoc } from '../../src/definitions/edit-rules-doc.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

const machine = {
  states: {
    DRAFT: { on: { SEND: { target: 'SENT' } } },
    SENT: { on: { CLOSE: { target: 'CLOSED' } } },
    REVIEW: { on: { X: { target: 'DONE' } } },
    CLOSED: { type: 'final' },
    DONE: {},
  },
};
const rules: EditRules = {
  description: 'test',
  fieldSets: { filed: ['/text', '/person'] },
  states: {
    DRAFT: {
      update: [
        { who: 'owner', fields: ['@filed'] },
        { who: ['role:clerk', 'assigned:/executorId'], fields: 'all', except: ['/person/pin'] },
      ],
      delete: ['owner'],
    },
    SENT: { update: 'none' },
    '*': { update: [{ who: 'staff', fields: ['/files'] }] },
  },
};
const owner = { id: '7', isOuter: true, roles: ['citizen'] };
const clerk = { id: '8', isOuter: false, roles: ['clerk'] };
const executor = { id: '9', isOuter: false, roles: ['employee'] };
const record = { owner: '7', data: { executorId: 9, text: 'a', person: { pin: '1', name: 'x' } } };
const states = statesOf(machine);

describe('edit rules', () => {
  it('picks the rule set of a status: its own, "*" for others that are not final, none for a final one', () => {
    expect(states.final).toEqual(new Set(['CLOSED', 'DONE']));
    expect(ruleSetFor(rules, 'DRAFT', states)).toBe(rules.states.DRAFT);
    expect(ruleSetFor(rules, 'SENT', states)!.update).toBe('none');
    expect(ruleSetFor(rules, 'REVIEW', states)).toBe(rules.states['*']);
    expect(ruleSetFor(rules, 'CLOSED', states)).toBeUndefined();
    expect(ruleSetFor(rules, 'DONE', states)).toBeUndefined();
  });

  it('fits each who: owner, staff, outer, role, assigned user (one id or a list), recipient, any; never a visitor but for any', () => {
    expect(fits('owner', owner, record)).toBe(true);
    expect(fits('owner', clerk, record)).toBe(false);
    expect(fits('staff', clerk, record)).toBe(true);
    expect(fits('staff', owner, record)).toBe(false);
    expect(fits('outer', owner, record)).toBe(true);
    expect(fits('role:clerk', clerk, record)).toBe(true);
    expect(fits('assigned:/executorId', executor, record)).toBe(true);
    expect(fits('assigned:/executorId', executor, { owner: null, data: { executorId: [3, 9] } })).toBe(true);
    expect(fits('assigned:/executorId', clerk, record)).toBe(false);
    expect(fits('recipient', owner, { ...record, addressedToActor: true })).toBe(true);
    expect(fits('recipient', owner, record)).toBe(false);
    const visitor = { id: null, isOuter: true, roles: [] };
    expect(fits('owner', visitor, { owner: null, data: {} })).toBe(false);
    expect(fits('any', visitor, record)).toBe(true);
  });

  it('allows what a fitting rule names (field sets, objects with what is inside), less its exceptions', () => {
    const set = ruleSetFor(rules, 'DRAFT', states);
    const mine = editRightsOf(rules, set, owner, record);
    expect(mine).toMatchObject({ update: true, delete: true });
    expect(mayChange(mine, '/text')).toBe(true);
    expect(mayChange(mine, '/person/pin')).toBe(true);
    expect(mayChange(mine, '/files')).toBe(false);
    const theirs = editRightsOf(rules, set, clerk, record);
    expect(theirs.delete).toBe(false);
    expect(mayChange(theirs, '/files')).toBe(true);
    expect(mayChange(theirs, '/person/name')).toBe(true);
    expect(mayChange(theirs, '/person/pin')).toBe(false);
    // Replacing the object that holds an excepted field would change it too.
    expect(mayChange(theirs, '/person')).toBe(false);
    expect(editRightsOf(rules, set, executor, record).update).toBe(true);
    expect(editRightsOf(rules, ruleSetFor(rules, 'SENT', states), clerk, record)).toEqual({
      update: false,
      grants: [],
      delete: false,
    });
    expect(editRightsOf(rules, undefined, clerk, record).update).toBe(false);
  });

  it('names the innermost changed properties, whatever the key order, and no change as none', () => {
    expect(changedPointers({ a: { x: 1, y: 2 }, b: [1] }, { b: [1], a: { y: 2, x: 1 } })).toEqual([]);
    expect(changedPointers({ a: { x: 1, y: 2 } }, { a: { x: 1, y: 3 }, c: 'new' })).toEqual(['/a/y', '/c']);
    expect(changedPointers({ a: { x: 1 } }, {})).toEqual(['/a/x']);
    expect(changedPointers({ a: {} }, {})).toEqual(['/a']);
    expect(changedPointers({}, { a: {} })).toEqual(['/a']);
    expect(changedPointers({ a: { x: 1 } }, { a: null })).toEqual(['/a']);
    expect(changedPointers({ list: [1, 2] }, { list: [2, 1] })).toEqual(['/list']);
  });

  it('escapes keys holding "/" or "~" in the pointers it names (RFC 6901)', () => {
    expect(changedPointers({ 'a/b': { 'c~d': 1 } }, { 'a/b': { 'c~d': 2 } })).toEqual(['/a~1b/c~0d']);
    expect(changedPointers({}, { '~1': 'x', 'a/': {} })).toEqual(['/a~1', '/~01']);
  });

  it('writes every entity and every state of its machine into docs/edit-rules.md', async () => {
    const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
    const doc = renderEditRulesDoc(registry);
    for (const def of registry.entities.values()) {
      expect(doc).toContain(`## ${def.id}\n`);
      const m = def.manifest.workflow ? registry.machines.get(def.manifest.workflow) : undefined;
      for (const state of Object.keys(m?.states ?? {})) expect(doc, `${def.id} ${state}`).toContain(`| \`${state}\``);
    }
  });
});
