/**
 * `npm run bench:form`: keystroke-to-paint in Chromium on the online statistical report
 * wizard's rows step holding 300 industry rows — the array-heavy form. Each key press is
 * timed from the keydown event to the first frame painted after it. Prints p50/p95/max, and
 * the renderer's main-thread time per key press (steadier than latency on a busy machine);
 * never asserts. Needs a build (`npm run build`) and /usr/bin/chromium.
 *
 *   BENCH_PROFILE=/tmp/keys.cpuprofile npm run bench:form   # also saves the key presses' CPU profile
 *                                                           # (Chrome DevTools' Performance tab opens it;
 *                                                           # a build with --minify false names functions)
 *   BENCH_TRACE=/tmp/keys.json npm run bench:form          # also saves a Chromium trace of them (native work too)
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, startPortal } from '../../tests/support/browser.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { industryRows } from '../../tests/support/report-rows.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 300);
const KEYS = Number(process.env.BENCH_KEYS ?? 80);
const screenFile = readdirSync(path.join(REPO_ROOT, 'screens')).find((f) => f === 'online-report-new.json');
if (!screenFile) throw new Error('screens/online-report-new.json is missing');
const ROUTE = '/admin/online-reports/new';

const data = {
  subject: { stir: '301234567', name: 'Toshkent non kombinati', regionId: 14 },
  period: { periodType: 'ANNUAL', year: 2025 },
  industryRows: industryRows(ROWS),
  serviceRows: [],
};

/** CPU seconds (user + system) used so far by this process's descendants (Chromium's processes). */
function chromiumCpuSeconds(): number {
  const tick = 100; // USER_HZ on Linux
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
      cpu.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / tick);
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  const walk = (pid: number): void => {
    for (const child of children.get(pid) ?? []) {
      total += cpu.get(child) ?? 0;
      walk(child);
    }
  };
  walk(process.pid);
  return total;
}

const portal = await startPortal();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(
    ([draft]) => {
      localStorage.setItem('portal.locale', JSON.stringify('en'));
      localStorage.setItem('portal.permissionRules', JSON.stringify([{ action: 'manage', subject: 'all' }]));
      sessionStorage.setItem('portal.wizard.online-report-new.new', draft as string);
    },
    [JSON.stringify({ step: 2, data })],
  );
  const t0 = Date.now();
  await page.goto(`${portal.url}${ROUTE}`);
  const target = page.locator(`[data-field="/industryRows/${Math.floor(ROWS / 2)}/productName"] input`);
  await target.waitFor({ timeout: 60_000 });
  console.log(`bench:form — ${ROWS} industry rows rendered in ${Date.now() - t0} ms (navigation to interactive)`);
  await target.click();
  await page.evaluate(() => {
    const w = window as unknown as { __lat: number[] };
    w.__lat = [];
    document.addEventListener(
      'keydown',
      (e) => {
        const start = e.timeStamp;
        // The frame after the one that handles the change: its rAF runs after paint work is queued.
        requestAnimationFrame(() => setTimeout(() => w.__lat.push(performance.now() - start), 0));
      },
      true,
    );
  });
  // Main-thread time the renderer spent (CDP Performance metrics): unlike wall-clock latency it
  // hardly moves when other processes load the machine, so it compares two builds fairly.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () =>
    Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics.map((m: { name: string; value: number }) => [m.name, m.value]),
    ) as Record<string, number>;
  const trace = process.env.BENCH_TRACE;
  if (trace)
    await browser.startTracing(page, {
      path: trace,
      categories: ['devtools.timeline', 'blink', 'v8', 'disabled-by-default-devtools.timeline'],
    });
  const profile = process.env.BENCH_PROFILE;
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const before = await metrics();
  const cpu0 = chromiumCpuSeconds();
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.press(i % 10 === 9 ? 'Backspace' : 'a');
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(300);
  const after = await metrics();
  if (trace) await browser.stopTracing();
  if (profile) {
    writeFileSync(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    console.log(`CPU profile of the key presses: ${profile}`);
  }
  const cpuPerKey = ((chromiumCpuSeconds() - cpu0) * 1000) / KEYS;
  const perKey = (name: string) => (((after[name] ?? 0) - (before[name] ?? 0)) * 1000) / KEYS;
  const lat = (await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat)).sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]!;
  console.log(`keystrokes: ${lat.length}`);
  console.log(
    `keystroke-to-paint: p50 ${q(0.5).toFixed(1)} ms  p95 ${q(0.95).toFixed(1)} ms  max ${lat[lat.length - 1]!.toFixed(1)} ms   (target p95 ≤ 30 ms, issue #22)`,
  );
  console.log(
    `Chromium CPU time per keystroke (all its processes, from /proc): ${cpuPerKey.toFixed(1)} ms — what a key press costs, whatever else runs`,
  );
  console.log(
    `main-thread time per keystroke: task ${perKey('TaskDuration').toFixed(1)} ms (script ${perKey('ScriptDuration').toFixed(1)} ms, style ${perKey('RecalcStyleDuration').toFixed(1)} ms, layout ${perKey('LayoutDuration').toFixed(1)} ms)   load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await browser.close();
  await portal.close();
}
