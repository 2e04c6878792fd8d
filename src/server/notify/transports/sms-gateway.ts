import { GATEWAY_TIMEOUT_MS, type Transport, type TransportEntry } from './transport.ts';

/**
 * SMS through an HTTP gateway (`SMS_GATEWAY_URL`): `POST <url>` with the JSON body
 * `{"to": "998901234567", "text": "…"}`; any 2xx answer counts as accepted. Credentials, if
 * the gateway needs them, go into the URL (basic auth or a query token).
 */
export function createSmsGatewayTransport(url: string): Transport {
  const target = new URL(url);
  const auth = target.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`
    : undefined;
  target.username = '';
  target.password = '';
  return {
    channel: 'sms',
    async deliver({ to, text }) {
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ to, text }),
        signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`SMS gateway answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    },
  };
}

/** Channel `sms`: set up by SMS_GATEWAY_URL (`smsGatewayUrl`). */
export const smsGatewayTransport: TransportEntry = {
  channel: 'sms',
  fromConfig: (config) => (config.smsGatewayUrl ? createSmsGatewayTransport(config.smsGatewayUrl) : undefined),
};
