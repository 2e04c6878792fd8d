/**
 * The balancer of the cluster kill test and `bench:cluster`: CI runs with REQUIRE_HAPROXY=1
 * (.ci/run installs Debian's haproxy), so a missing HAProxy fails that test instead of skipping it;
 * the configuration it writes is one HAProxy itself accepts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { haproxyBinary, haproxyConfig, haproxyMissing, haproxyTestsEnabled } from '../support/haproxy.ts';

describe('REQUIRE_HAPROXY', () => {
  afterEach(() => vi.restoreAllMocks());

  it('fails when required, skips with the reason otherwise, runs when nothing is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const missing = haproxyMissing('');
    expect(missing).toMatch(/not installed.*apt-get install haproxy/);
    expect(() => haproxyTestsEnabled(missing, { REQUIRE_HAPROXY: '1' })).toThrow(`REQUIRE_HAPROXY=1 but ${missing}`);
    expect(haproxyTestsEnabled(missing, {})).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/HAProxy tests are SKIPPED: HAProxy is not installed/));
    expect(haproxyTestsEnabled(undefined, { REQUIRE_HAPROXY: '1' })).toBe(true);
    expect(haproxyMissing('/usr/sbin/haproxy')).toBeUndefined();
  });
});

describe('the balancer configuration', () => {
  const config = haproxyConfig(8080, [8081, 8082, 8083]);

  it('balances round robin over every instance, each health-checked on /api/health', () => {
    expect(config).toMatch(/bind 127\.0\.0\.1:8080\n/);
    expect(config).toMatch(/balance roundrobin/);
    expect(config).toMatch(/http-check send meth GET uri \/api\/health/);
    expect(config.match(/^ {2}server app\d 127\.0\.0\.1:\d+ check$/gm)).toEqual([
      '  server app1 127.0.0.1:8081 check',
      '  server app2 127.0.0.1:8082 check',
      '  server app3 127.0.0.1:8083 check',
    ]);
    // The visitor's address reaches the app (its TRUST_PROXY believes X-Forwarded-For).
    expect(config).toMatch(/option forwardfor/);
  });

  const binary = haproxyBinary();
  it.skipIf(!binary && process.env.REQUIRE_HAPROXY !== '1')('is accepted by HAProxy itself (haproxy -c)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'haproxy-config-'));
    try {
      writeFileSync(path.join(dir, 'haproxy.cfg'), config);
      const checked = spawnSync(binary ?? 'haproxy', ['-c', '-f', path.join(dir, 'haproxy.cfg')], {
        encoding: 'utf8',
      });
      expect(checked.status, checked.stderr + checked.stdout).toBe(0);
      expect(checked.stderr).not.toMatch(/\[WARNING\]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
