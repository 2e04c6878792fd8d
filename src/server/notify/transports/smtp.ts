import nodemailer from 'nodemailer';
import type { Transport, TransportEntry } from './transport.ts';

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

/** Channel `email`: set up by SMTP_URL (`smtpUrl`), sent from SMTP_FROM (`smtpFrom`, default portal@localhost). */
export const smtpTransport: TransportEntry = {
  channel: 'email',
  fromConfig: (config) =>
    config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.smtpFrom ?? 'portal@localhost') : undefined,
};
