/**
 * What a notification transport is, and what one entry of the transport registry
 * (notify/transports.ts) declares: its channel, how it reads the configuration, how it sends.
 */
import type { AppConfig } from '../../config.ts';
import type { Channel } from '../outbox.ts';

/** Delivers one rendered message over one channel; throws when it could not. */
export interface Transport {
  channel: Channel;
  /** Only these recipients (a system transport serves the systems whose URL it knows); all when absent. */
  recipients?: readonly string[];
  deliver(message: { to: string; subject: string; text: string }): Promise<void>;
  /** Releases what the transport holds open (an SMTP pool), when the app closes. */
  close?(): void;
}

/**
 * One entry of the transport registry: the channel it serves and how it is built from the
 * configuration — `undefined` when the configuration does not set it up (its messages then
 * stay in the outbox as `undeliverable`).
 * @example const sms: TransportEntry = { channel: 'sms', fromConfig: (c) => (c.smsGatewayUrl ? createSmsGatewayTransport(c.smsGatewayUrl) : undefined) };
 */
export interface TransportEntry {
  channel: Channel;
  /** The transport the configuration sets up, or `undefined` without its settings. */
  fromConfig(config: AppConfig): Transport | undefined;
}

/** Time allowed for an HTTP gateway or another system to answer. */
export const GATEWAY_TIMEOUT_MS = 15_000;
