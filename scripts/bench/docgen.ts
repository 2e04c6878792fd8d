/**
 * `npm run bench:docgen`: how long a one-page letter takes from template to PDF. The default
 * letter template (templates/correspondence/letter.docx) is filled with docxtemplater, then
 * converted to PDF by LibreOffice headless through the portal's converter
 * (src/server/capabilities/documents/convert.ts), BENCH_RUNS times (default 20) each way:
 *
 * - **cold**: every conversion on a new, empty LibreOffice profile (the first conversion of a
 *   pool slot after a start, when LibreOffice writes its profile);
 * - **warm**: conversions one after another on a slot whose profile exists (every later one);
 * - **parallel**: BENCH_RUNS conversions sent at once to a pool of DOCGEN_POOL_SIZE (default 2)
 *   warm slots: the time each waited and converted, and the whole batch.
 *
 * Prints p50/p95/max per way; never asserts. SOFFICE_PATH names LibreOffice if not on the PATH.
 *
 *   npm run bench:docgen
 *   BENCH_RUNS=40 DOCGEN_POOL_SIZE=3 npm run bench:docgen
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';
import {
  createPdfConverter,
  DEFAULT_CONVERTER,
  sofficeExists,
} from '../../src/server/capabilities/documents/convert.ts';
import { fillTemplate } from '../../src/server/capabilities/documents/fill.ts';

const positiveInt = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const RUNS = positiveInt(process.env.BENCH_RUNS, 20);
const POOL = positiveInt(process.env.DOCGEN_POOL_SIZE, DEFAULT_CONVERTER.poolSize);
const SOFFICE = process.env.SOFFICE_PATH || DEFAULT_CONVERTER.sofficePath;

/** The value at quantile q of sorted numbers (nearest rank). */
const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

const summary = (name: string, ms: number[]): string => {
  const sorted = [...ms].sort((a, b) => a - b);
  const f = (n: number) => `${Math.round(n)} ms`.padStart(9);
  return `${name.padEnd(28)} n=${String(sorted.length).padStart(3)}  p50 ${f(quantile(sorted, 0.5))}  p95 ${f(quantile(sorted, 0.95))}  max ${f(sorted.at(-1)!)}`;
};

const timed = async (fn: () => Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

async function main(): Promise<void> {
  if (!sofficeExists(SOFFICE)) {
    console.error(`LibreOffice not found (${SOFFICE}); install it or set SOFFICE_PATH`);
    process.exit(1);
  }
  const template = await readFile(path.join(REPO_ROOT, 'templates/correspondence/letter.docx'));
  const values = {
    number: 'ХТ-17/2026',
    date: '05.03.2026',
    regionId: 'Республика Каракалпакстан',
    type: 'Хат',
    applicant: 'Каримов Анвар Ботирович',
    summary: 'Нархлар ҳақида мурожаат',
    executorId: 'Раҳимова Дилноза',
    status: 'Яратилган',
    today: '26.11.2026',
    user: 'Portal Administrator',
  };
  const fills: number[] = [];
  let docx: Buffer = Buffer.alloc(0);
  for (let i = 0; i < RUNS; i++) fills.push(await timed(async () => (docx = fillTemplate(template, values))));
  const settings = { sofficePath: SOFFICE, poolSize: POOL, timeoutMs: 120_000 };

  console.log(`bench:docgen — one-page letter, ${RUNS} runs each, pool ${POOL}, ${SOFFICE}`);
  console.log(summary('fill (docxtemplater)', fills));

  const cold: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const fresh = createPdfConverter(() => ({ ...settings, poolSize: 1 }));
    cold.push(await timed(() => fresh.convert(docx)));
    await fresh.close();
  }
  console.log(summary('convert, cold profile', cold));

  const pool = createPdfConverter(() => settings);
  // Warm every slot once: each keeps its profile from then on.
  await Promise.all(Array.from({ length: POOL }, () => pool.convert(docx)));
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) warm.push(await timed(() => pool.convert(docx)));
  console.log(summary('convert, warm (sequential)', warm));

  const waited: number[] = [];
  const batch = await timed(() =>
    Promise.all(Array.from({ length: RUNS }, async () => waited.push(await timed(() => pool.convert(docx))))),
  );
  console.log(summary(`convert, ${RUNS} at once`, waited));
  console.log(
    `${'batch of all at once'.padEnd(28)} ${Math.round(batch)} ms (${(RUNS / (batch / 1000)).toFixed(2)} documents/s)`,
  );
  await pool.close();
}

await main();
