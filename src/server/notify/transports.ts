/**
 * The notification transport registry: every way the delivery worker can send a message, one
 * entry per channel, each in its own module under transports/ (what it reads from the
 * configuration, how it sends). A new transport is a module there and a line in
 * {@link TRANSPORTS}; the notify service builds whichever the configuration sets up.
 */
import type { AppConfig } from '../config.ts';
import type { Transport, TransportEntry } from './transports/transport.ts';
import { smtpTransport } from './transports/smtp.ts';
import { smsGatewayTransport } from './transports/sms-gateway.ts';
import { systemTransport } from './transports/system.ts';

export type { Transport, TransportEntry } from './transports/transport.ts';
export { createSmtpTransport } from './transports/smtp.ts';
export { createSmsGatewayTransport } from './transports/sms-gateway.ts';
export { createSystemTransport } from './transports/system.ts';

/** Every transport the portal has: e-mail over SMTP, SMS through an HTTP gateway, messages to other systems. */
export const TRANSPORTS: readonly TransportEntry[] = [smtpTransport, smsGatewayTransport, systemTransport];

/**
 * The transports the configuration sets up, in {@link TRANSPORTS}' order; a channel without
 * one keeps its messages in the outbox as `undeliverable`.
 * @example createTransports({ ...config, smsGatewayUrl: 'http://127.0.0.1:9000/send' }).map((t) => t.channel) // ['sms']
 */
export function createTransports(config: AppConfig, entries: readonly TransportEntry[] = TRANSPORTS): Transport[] {
  return entries.flatMap((entry) => entry.fromConfig(config) ?? []);
}
