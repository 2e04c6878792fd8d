import nodemailer from 'nodemailer';
import type { Channel } from './outbox.ts';

/** Delivers one rendered message over one channel; throws when it could not. */
export interface Transport {
  channel: Channel;
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
