import { chromium } from 'playwright-core';
const url = process.argv[2]!;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.goto(url);
await page.waitForTimeout(4000);
await page.waitForTimeout(1500);
const { profile } = await cdp.send('Profiler.stop') as any;
const self = new Map<string, number>();
const dt = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const byUrl = new Map<string, number>();
for (const n of profile.nodes) {
  const t = (dt.get(n.id) ?? 0) / 1000;
  const f = n.callFrame; const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*\//, '')}:${f.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + t);
  const u = f.url.replace(/.*\//, '') || f.functionName;
  byUrl.set(u, (byUrl.get(u) ?? 0) + t);
}
console.log([...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`).join('\n'));
console.log('--');
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${v.toFixed(0).padStart(6)} ${k}`).join('\n'));
await browser.close();
