/**
 * The sample-data generator (tests/support/sample-data.ts) that the contract tests and
 * `npm run preview` fill records with: for every entity, a full and a minimal sample are
 * valid against the entity's schema under the server's ajv, and the same seed gives the same
 * record (a preview or a failing test can be reproduced).
 */
import { describe, expect, it } from 'vitest';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { createSampler } from '../support/sample-data.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const ajv = createServerAjv();

describe('sample records', () => {
  for (const def of registry.entities.values()) {
    it(`${def.id}: full and minimal samples are valid against its schema, the same for the same seed`, () => {
      const sample = createSampler(def.schema, registry.references, ajv);
      const validate = ajv.compile(def.schema);
      for (const opts of [{ full: true }, { full: false, minimal: true }]) {
        const record = sample(11, opts);
        expect(validate(record), `${def.id} ${JSON.stringify(opts)}: ${JSON.stringify(validate.errors)}`).toBe(true);
        // Dates and ids are drawn from the seed; a uuid format would not repeat, and none is used.
        expect(sample(11, opts)).toEqual(record);
      }
      // A full sample fills every top-level field the schema declares (except links to user accounts and files).
      expect(Object.keys(sample(11, { full: true })).length).toBeGreaterThan(0);
    });
  }
});
