import fs from 'node:fs';
import { createServerAjv } from './src/server/validation.ts';
import { createSampler } from './tests/support/sample-data.ts';
const refs = new Map();
for (const f of fs.readdirSync('schemas/_reference')) { const r = JSON.parse(fs.readFileSync('schemas/_reference/' + f, 'utf8')); refs.set(r.kind, r); }
for (const id of ['contractor', 'appeal', 'pharmacy-appeal', 'compliance-case']) {
  const schema = JSON.parse(fs.readFileSync(`schemas/${id}/schema.json`, 'utf8'));
  const s = createSampler(schema, refs, createServerAjv());
  let fails = 0;
  for (let seed = 0; seed < 30; seed++) for (const full of [true, false]) { try { s(seed * 1000, { full }); } catch (e) { fails++; if (fails < 2) console.log(id, seed, full, String(e).slice(0, 400)); } }
  console.log(id, 'fails', fails);
}
