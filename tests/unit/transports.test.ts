import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/server/config.ts';
import { createTransports, TRANSPORTS } from '../../src/server/notify/transports.ts';

/** The settings a transport may read; the rest of the configuration plays no part. */
const config = (settings: Partial<AppConfig> = {}): AppConfig =>
  ({
    root: '.',
    dataDir: '.',
    databaseUrl: undefined,
    inMemory: true,
    filesDir: '.',
    listCountCap: 1000,
    clock: () => new Date(),
    ...settings,
  }) as AppConfig;

describe('the notification transport registry', () => {
  it('has one entry per channel', () => {
    const channels = TRANSPORTS.map((t) => t.channel);
    expect(new Set(channels).size).toBe(channels.length);
    expect([...channels].sort()).toEqual(['email', 'sms', 'system']);
  });

  it('builds no transport without settings, and each one its settings set up', () => {
    expect(createTransports(config())).toEqual([]);
    expect(createTransports(config({ systemUrls: {} }))).toEqual([]);
    const all = createTransports(
      config({
        smtpUrl: 'smtp://127.0.0.1:2525',
        smsGatewayUrl: 'http://user:secret@127.0.0.1:9/send',
        systemUrls: { 'state-service': 'http://127.0.0.1:9/state' },
      }),
    );
    try {
      expect(all.map((t) => t.channel)).toEqual(['email', 'sms', 'system']);
      expect(all.find((t) => t.channel === 'system')!.recipients).toEqual(['state-service']);
      expect(all.filter((t) => t.recipients).map((t) => t.channel)).toEqual(['system']);
    } finally {
      for (const t of all) t.close?.();
    }
    for (const entry of TRANSPORTS) {
      const built = createTransports(
        config({
          smtpUrl: 'smtp://127.0.0.1:2525',
          smsGatewayUrl: 'http://127.0.0.1:9/send',
          systemUrls: { x: 'http://127.0.0.1:9/x' },
        }),
        [entry],
      );
      expect(built.map((t) => t.channel)).toEqual([entry.channel]);
      for (const t of built) t.close?.();
    }
  });
});
