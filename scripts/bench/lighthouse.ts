/**
 * `npm run bench:lighthouse`: Lighthouse (mobile form factor, default simulated mobile
 * throttling — slow 4G, 4× CPU slowdown) on every public route (the routes the build
 * prerenders: src/definitions/public-routes.ts), as a visitor meets them after `npm start`:
 * the built client served by the Fastify server (a child process running src/server/main.ts
 * on an embedded PGlite database in a temporary data directory). Prints the performance,
 * accessibility and best-practices scores, the key metrics and every audit of those
 * categories that did not pass, then one table of all pages. Prints only: it exits non-zero
 * only when something crashes.
 *
 *   npm run bench:lighthouse
 *   BENCH_RUNS=3 npm run bench:lighthouse        # median of 3 runs per page
 *   BENCH_PAGES=/murojaat npm run bench:lighthouse
 *   BENCH_SAVE=/tmp/lh npm run bench:lighthouse  # also writes each run's full report (JSON)
 *
 * Chrome is Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium); none is downloaded.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, freePort } from '../../tests/support/browser.ts';
import { definedPublicRoutes } from '../../tests/support/public-routes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = process.env.BENCH_PAGES
  ? process.env.BENCH_PAGES.split(',')
      .map((p) => p.trim())
      .filter(Boolean)
  : await definedPublicRoutes(root);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1) || 1);
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
} as const;
const TARGETS: Record<string, number> = { performance: 95, accessibility: 100 };
/** Lighthouse's own trace failures (NO_NAVSTART, NO_FCP on a busy machine): that run is taken again, this often. */
const ATTEMPTS = 3;

interface Audit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
  details?: { items?: Array<Record<string, unknown>> };
}
interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, Audit>;
  benchmarkIndex?: number;
  environment?: { benchmarkIndex?: number };
  runWarnings?: string[];
  runtimeError?: { code: string; message: string };
}

/** Builds the web app when dist/web is missing or stale (the same step `npm start` takes). */
function ensureBuild(): void {
  const built = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/ensure-build.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the web app build failed');
}

/** `npm start` in a child process (so the server does not share this process's CPU time slices with Lighthouse's own work). */
async function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      WORKFLOW_SWEEP_INTERVAL_MS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return server;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill('SIGTERM');
  throw new Error('the server did not answer /api/health within 180 s');
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const fmtMs = (n: number): string => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`);

/** The audits of our categories that did not pass, with the first few offending nodes. */
function failures(lhr: Lhr, category: string): string[] {
  const lines: string[] = [];
  for (const ref of lhr.categories[category]?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (
      !audit ||
      audit.score === null ||
      audit.score >= 0.9 ||
      ['notApplicable', 'informative', 'manual'].includes(audit.scoreDisplayMode)
    )
      continue;
    if (category === 'performance' && ref.weight === 0 && audit.score >= 0.5) continue;
    lines.push(`    ✗ ${audit.id}: ${audit.title}${audit.displayValue ? ` — ${audit.displayValue}` : ''}`);
    for (const item of (audit.details?.items ?? []).slice(0, 4)) {
      const node = item.node as { selector?: string; snippet?: string } | undefined;
      const label =
        node?.snippet ??
        (typeof item.url === 'string' ? item.url : undefined) ??
        (typeof item.description === 'string' ? item.description : undefined);
      if (label) lines.push(`        ${String(label).slice(0, 160)}`);
    }
  }
  return lines;
}

async function main(): Promise<void> {
  ensureBuild();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-lighthouse-'));
  const port = await freePort();
  const server = await startServer(port, dataDir);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    console.log(
      `bench:lighthouse — Lighthouse mobile (simulated slow 4G, 4× CPU slowdown), ${RUNS} run(s) per page, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}`,
    );
    // One unmeasured visit warms the server (first-request compilation of schemas, caches).
    await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    const table: string[] = [];
    for (const page of PAGES) {
      const url = `http://127.0.0.1:${port}${page}`;
      const runs: Lhr[] = [];
      for (let i = 0; i < RUNS; i++) {
        let lhr: Lhr | undefined;
        for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
          const result = await lighthouse(url, {
            port: chrome.port,
            logLevel: 'error',
            output: 'json',
            onlyCategories: [...CATEGORIES],
          });
          if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
          lhr = result.lhr as unknown as Lhr;
          if (!lhr.runtimeError) break;
          console.log(
            `  ${page}: run ${i + 1} failed (${lhr.runtimeError.code})${attempt < ATTEMPTS ? ', again' : ''}`,
          );
        }
        runs.push(lhr!);
        if (process.env.BENCH_SAVE) {
          mkdirSync(process.env.BENCH_SAVE, { recursive: true });
          writeFileSync(
            path.join(
              process.env.BENCH_SAVE,
              `${page === '/' ? 'root' : page.slice(1).replace(/\W+/g, '_')}-${i + 1}.json`,
            ),
            JSON.stringify(lhr, null, 1),
          );
        }
      }
      const score = (c: string) => median(runs.map((r) => Math.round((r.categories[c]?.score ?? 0) * 100)));
      const metric = (id: string) => median(runs.map((r) => r.audits[id]?.numericValue ?? NaN));
      console.log(`\n${page}`);
      for (const c of CATEGORIES)
        console.log(
          `  ${c.padEnd(15)} ${String(score(c)).padStart(3)}${TARGETS[c] !== undefined ? `   (target ≥ ${TARGETS[c]})` : ''}`,
        );
      console.log(
        `  ${Object.entries(METRICS)
          .map(([name, id]) => `${name} ${id === METRICS.CLS ? metric(id).toFixed(3) : fmtMs(metric(id))}`)
          .join('   ')}`,
      );
      const last = runs[runs.length - 1]!;
      const bi = last.environment?.benchmarkIndex ?? last.benchmarkIndex;
      if (bi)
        console.log(`  benchmarkIndex ${bi} (Chrome's own CPU speed estimate; lower means a slower or busier machine)`);
      for (const c of CATEGORIES) {
        const lines = failures(last, c);
        if (lines.length) console.log(`  ${c} audits not passed:\n${lines.join('\n')}`);
      }
      for (const warning of last.runWarnings ?? []) console.log(`  warning: ${warning}`);
      table.push(
        `| ${page} | ${CATEGORIES.map((c) => score(c)).join(' | ')} | ${metric(METRICS.CLS).toFixed(3)} | ${fmtMs(metric(METRICS.LCP))} | ${fmtMs(metric(METRICS.TBT))} |`,
      );
    }
    console.log(
      `\nmedian of ${RUNS} run(s) per page, load average ${os.loadavg()[0]!.toFixed(2)}\n| page | ${CATEGORIES.join(' | ')} | CLS | LCP | TBT |\n|---|---|---|---|---|---|---|\n${table.join('\n')}`,
    );
  } finally {
    chrome.kill();
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
