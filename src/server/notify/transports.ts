import nodemailer from 'nodemailer';
import type { Channel } from './outbox.ts';

/** Delivers one rendered message over one channel; throws when it could not. */
export interface Transport {
  channel: Channel;
  /** Only these recipients (a system transport serves the systems whose URL it knows); all when absent. */
  recipients?: readonly string[];
  deliver(message: { to: string; subject: string; text: string }): Promise<void>;
}

/**
 * E-mail through an SMTP server (`SMTP_URL`, e.g. `smtps://user:pass@mail.example.uz:465`
 * or `smtp://localhost:2525`), sent from `SMTP_FROM`.
 */
export function createSmtpTransport(url: string, from: string): Transport & { close(): void } {
  const transporter = nodemailer.createTransport(url);
  return {
    channel: 'email',
    async deliver({ to, subject, text }) {
      await transporter.sendMail({ from, to, subject, text });
    },
    close: () => transporter.close(),
  };
}

/** Time allowed for the SMS gateway to answer. */
const GATEWAY_TIMEOUT_MS = 15_000;

/**
 * SMS through an HTTP gateway (`SMS_GATEWAY_URL`): `POST <url>` with the JSON body
 * `{"to": "998901234567", "text": "…"}`; any 2xx answer counts as accepted. Credentials, if
 * the gateway needs them, go into the URL (basic auth or a query token).
 */
export function createSmsGatewayTransport(url: string): Transport {
  const target = new URL(url);
  const auth = target.username ? `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}` : undefined;
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

/**
 * Messages to other systems (channel `system`): `POST <url>` of the named system with the
 * message's JSON body as queued (e.g. `{"type": "FOR_ACCEPTED_DXA", …}`) and the header
 * `x-message-type`; any 2xx counts as accepted, anything else is retried by the worker.
 * `urls` maps system names to URLs (STATE_SERVICE_URL → `state-service`).
 */
export function createSystemTransport(urls: Readonly<Record<string, string>>): Transport {
  const targets = new Map(Object.entries(urls).map(([name, url]) => {
    const target = new URL(url);
    const auth = target.username ? `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}` : undefined;
    target.username = '';
    target.password = '';
    return [name, { target, auth }] as const;
  }));
  return {
    channel: 'system',
    recipients: [...targets.keys()],
    async deliver({ to, subject, text }) {
      const system = targets.get(to);
      if (!system) throw new Error(`no URL is configured for the system "${to}"`);
      const res = await fetch(system.target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-message-type': subject, ...(system.auth ? { authorization: system.auth } : {}) },
        body: text,
        signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`${to} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    },
  };
}
