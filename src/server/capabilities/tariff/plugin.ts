import type { FastifyPluginAsync } from 'fastify';
import type { JSONSchema7 } from 'json-schema';
import { systemActor } from '../../auth/access.ts';
import { getAtPointer, pointerSegments, setAt } from '../../../shared/pointer.ts';
import { resolveFieldSchema, scalarType } from '../../../shared/field-schema.ts';
import { addWriteStep } from '../../store/computed-writes.ts';
import type { EntityStore } from '../../store/entity-store-contract.ts';
import type { CapabilityOptions } from '../registry.ts';

/** The manifest's `tariff`, as the plugin reads it. */
export interface TariffSpec {
  rates: {
    entity: string;
    match: Record<string, string>;
    where?: Record<string, unknown>;
    copy: Record<string, string>;
  };
  field: string;
  factors: string[];
  decimals?: number;
}

/**
 * The product of the factors rounded to `decimals`; null when one is not a finite number (a
 * charge is never guessed from a partial record).
 * @example tariffCharge([150000, 1.5, 12], 0) // 2700000
 */
export function tariffCharge(factors: readonly unknown[], decimals = 0): number | null {
  if (!factors.length || factors.some((f) => typeof f !== 'number' || !Number.isFinite(f))) return null;
  const scale = 10 ** decimals;
  const product = (factors as number[]).reduce((a, b) => a * b, 1);
  return Math.round(product * scale) / scale;
}

/** Removes the field at a pointer (a nested one from its parent object), if present. */
function removeAt(data: Record<string, unknown>, pointer: string): void {
  const segments = pointerSegments(pointer);
  const last = segments.pop()!;
  let holder: unknown = data;
  for (const s of segments)
    holder = holder && typeof holder === 'object' ? (holder as Record<string, unknown>)[s] : undefined;
  if (holder && typeof holder === 'object') delete (holder as Record<string, unknown>)[last];
}

/**
 * Whether a matched field's value has its schema's type. The step sees the input before the
 * store validates it: a wrong type finds no rate here and is refused by validation after.
 */
function fitsType(schema: JSONSchema7, pointer: string, value: unknown): boolean {
  const field = resolveFieldSchema(schema, pointer);
  const type = field && scalarType(field);
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (type === 'string') return typeof value === 'string';
  if (type === 'boolean') return typeof value === 'boolean';
  return false;
}

/**
 * The first rate record matching the record's fields, read as the server (rates are a
 * tariff, not the saver's data); null when a matched field is empty or not of its type, or no rate matches.
 */
async function findRate(
  store: EntityStore,
  schema: JSONSchema7,
  spec: TariffSpec,
  data: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  // Filter values as list-search takes them from a query string.
  const filters: Record<string, unknown> = Object.fromEntries(
    Object.entries(spec.rates.where ?? {}).map(([k, v]) => [k, String(v)]),
  );
  for (const [filter, pointer] of Object.entries(spec.rates.match)) {
    const value = getAtPointer(data, pointer);
    if (value === undefined || value === null || value === '' || !fitsType(schema, pointer, value)) return null;
    filters[filter] = String(value);
  }
  for await (const rate of store.streamList(spec.rates.entity, filters, { sortBy: ['id'] }, systemActor(), 1))
    return rate;
  return null;
}

/**
 * Entities whose manifest declares `tariff`: before every create and update the server copies
 * the matching rate's fields into the record and writes the charge (the product of the
 * factors), whatever the client sent for them; without a rate or a factor they stay empty.
 */
const tariff: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const spec = def.manifest.tariff as TariffSpec;
    addWriteStep(app.store, def.id, def.manifest.subject, async (data) => {
      const out = structuredClone(data);
      const rate = await findRate(app.store, def.schema as JSONSchema7, spec, out);
      for (const [target, from] of Object.entries(spec.rates.copy)) {
        const value = rate ? getAtPointer(rate, from) : undefined;
        if (value === undefined) removeAt(out, target);
        else setAt(out, target, value);
      }
      const charge = tariffCharge(
        spec.factors.map((f) => getAtPointer(out, f)),
        spec.decimals ?? 0,
      );
      if (charge === null) removeAt(out, spec.field);
      else setAt(out, spec.field, charge);
      return out;
    });
  }
};

export default tariff;
