import { GATEWAY_TIMEOUT_MS, type Transport, type TransportEntry } from './transport.ts';

/**
 * Messages to other systems (channel `system`): `POST <url>` of the named system with the
 * message's JSON body as queued (e.g. `{"type": "FOR_ACCEPTED_DXA", …}`) and the header
 * `x-message-type`; any 2xx counts as accepted, anything else is retried by the worker.
 * `urls` maps system names to URLs (STATE_SERVICE_URL → `state-service`).
 */
export function createSystemTransport(urls: Readonly<Record<string, string>>): Transport {
  const targets = new Map(
    Object.entries(urls).map(([name, url]) => {
      const target = new URL(url);
      const auth = target.username
        ? `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`
        : undefined;
      target.username = '';
      target.password = '';
      return [name, { target, auth }] as const;
    }),
  );
  return {
    channel: 'system',
    recipients: [...targets.keys()],
    async deliver({ to, subject, text }) {
      const system = targets.get(to);
      if (!system) throw new Error(`no URL is configured for the system "${to}"`);
      const res = await fetch(system.target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-message-type': subject,
          ...(system.auth ? { authorization: system.auth } : {}),
        },
        body: text,
        signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`${to} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    },
  };
}

/** Channel `system`: set up by the other systems' URLs (`systemUrls`: STATE_SERVICE_URL → `state-service`), when there is one. */
export const systemTransport: TransportEntry = {
  channel: 'system',
  fromConfig: (config) =>
    Object.keys(config.systemUrls ?? {}).length ? createSystemTransport(config.systemUrls!) : undefined,
};
