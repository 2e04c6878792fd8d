/**
 * CI runs with REQUIRE_RABBITMQ=1 (.ci/run): a RabbitMQ that is not there, or lacks its STOMP
 * plugin, fails the cross-instance test instead of skipping it; on a laptop it skips, saying why.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rabbitmqMissing, rabbitmqTestsEnabled } from '../support/rabbitmq.ts';

describe('REQUIRE_RABBITMQ', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  /** A fake installation: the server script, and the STOMP plugin when asked. */
  const install = (withStomp: boolean) => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'rabbit-layout-'));
    dirs.push(root);
    const server = path.join(root, 'bin/rabbitmq-server');
    mkdirSync(path.dirname(server), { recursive: true });
    writeFileSync(server, '');
    const plugins = path.join(root, 'lib/rabbitmq_server-3.10.8/plugins');
    mkdirSync(path.join(plugins, 'rabbitmq_management-3.10.8'), { recursive: true });
    if (withStomp) mkdirSync(path.join(plugins, 'rabbitmq_stomp-3.10.8'));
    return { server, lib: path.join(root, 'lib') };
  };

  it('names what is missing: the server, or its STOMP plugin', () => {
    expect(rabbitmqMissing('/nowhere/rabbitmq-server')).toMatch(/not installed.*apt-get install rabbitmq-server/);
    const bare = install(false);
    expect(rabbitmqMissing(bare.server, bare.lib)).toMatch(/STOMP plugin is missing/);
    const full = install(true);
    expect(rabbitmqMissing(full.server, full.lib)).toBeUndefined();
  });

  it('fails when required, skips with the reason otherwise, runs when nothing is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => rabbitmqTestsEnabled('RabbitMQ is not installed', { REQUIRE_RABBITMQ: '1' })).toThrow(
      'REQUIRE_RABBITMQ=1 but RabbitMQ is not installed',
    );
    expect(rabbitmqTestsEnabled('RabbitMQ is not installed', {})).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/RabbitMQ tests are SKIPPED: RabbitMQ is not installed/));
    expect(rabbitmqTestsEnabled(undefined, { REQUIRE_RABBITMQ: '1' })).toBe(true);
  });
});
