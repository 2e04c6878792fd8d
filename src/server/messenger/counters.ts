import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import type { FastifyInstance } from 'fastify';
import { rowScope, type Actor } from '../auth/access.ts';
import { sqlText } from '../../shared/pointer.ts';

/** The CASL subject of the messenger (a subsystem, not an entity): staff roles have `read Message`. */
export const MESSENGER_SUBJECT = 'Message';

/** The seven counters of the header, in the spec's order; `total` is their sum. */
export const COUNTER_NAMES = [
  'applicationDXACount',
  'descendedDXACount',
  'applicationCount',
  'resolutionCount',
  'descendedCount',
  'outgoingCount',
  'incomeCount',
] as const;
export type Counters = Record<(typeof COUNTER_NAMES)[number] | 'total', number>;

interface Rule {
  entity: string;
  statuses: string[];
  assignedTo?: string;
}
export const COUNTERS_FILE = 'schemas/_counters/letter-counters.json';

const ruleSchema = {
  type: 'object',
  required: ['entity', 'statuses'],
  additionalProperties: false,
  properties: {
    entity: { type: 'string' },
    statuses: { type: 'array', items: { type: 'string' } },
    assignedTo: { type: 'string', pattern: '^(/[A-Za-z0-9_]+)+$' },
  },
};
const fileSchema = {
  type: 'object',
  required: ['counters'],
  properties: {
    description: { type: 'string' },
    counters: {
      type: 'object',
      additionalProperties: false,
      required: [...COUNTER_NAMES],
      properties: Object.fromEntries(COUNTER_NAMES.map((n) => [n, { type: 'array', items: ruleSchema }])),
    },
  },
};

/**
 * The counters of one user, computed from the records the declarative mapping names
 * (schemas/_counters/letter-counters.json). A bad mapping stops the start, naming the problem.
 */
export function createCounters(app: FastifyInstance) {
  const file = path.join(app.config.root, COUNTERS_FILE);
  const mapping = JSON.parse(readFileSync(file, 'utf8')) as { counters: Record<string, Rule[]> };
  const validate = new Ajv({ allErrors: true }).compile(fileSchema);
  if (!validate(mapping)) throw new Error(`${COUNTERS_FILE}: ${JSON.stringify(validate.errors)}`);
  for (const rules of Object.values(mapping.counters)) {
    for (const rule of rules) {
      const def = app.definitions.entities.get(rule.entity);
      if (!def) throw new Error(`${COUNTERS_FILE}: no entity ${rule.entity}`);
    }
  }
  // The same actor a request gets (auth's: roles, the staff card's canLogin, unit permissions).
  const actorOf = (userId: string): Promise<Actor | undefined> => app.authSessions.actorOf(userId);

  const countRule = async (actor: Actor, rule: Rule): Promise<number> => {
    const def = app.definitions.entities.get(rule.entity)!;
    if (!actor.ability.can('read', def.manifest.subject)) return 0;
    const table = app.tables.get(rule.entity)!;
    const params: unknown[] = [rule.statuses];
    const param = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const conds = ['status = ANY($1::text[])'];
    const scope = rowScope(actor, def, param);
    if (scope) conds.push(scope);
    if (rule.assignedTo) {
      conds.push(`${sqlText(rule.assignedTo)} = ${param(actor.id)}`);
    }
    const { rows } = await app.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table.table} WHERE ${conds.join(' AND ')}`,
      params,
    );
    return rows[0]!.n;
  };

  return {
    /** The user's actor as a request would have it (roles read afresh), or undefined when they may not sign in. */
    actorOf,
    async of(userId: string): Promise<Counters> {
      const actor = await actorOf(userId);
      const result = Object.fromEntries([...COUNTER_NAMES, 'total'].map((n) => [n, 0])) as Counters;
      if (!actor) return result;
      for (const name of COUNTER_NAMES) {
        for (const rule of mapping.counters[name]!) result[name] += await countRule(actor, rule);
        result.total += result[name];
      }
      return result;
    },
  };
}
