import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as a local test server received it. */
export interface Received {
  to: string;
  text: string;
}

/** The six-digit code in a received message. */
export const codeIn = (message: Received): string => /\b(\d{6})\b/.exec(message.text)?.[1] ?? '';

/**
 * A real SMTP server on a free loopback port (the `smtp-server` package of the nodemailer
 * authors): what the portal's SMTP transport sends arrives here.
 */
export async function startSmtpServer(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // Quoted-printable soft breaks and escapes: enough to read a code out of the text.
        const raw = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
        for (const rcpt of session.envelope.rcptTo) received.push({ to: rcpt.address, text: raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A local HTTP server playing the SMS gateway: it takes `POST {to, text}` and keeps it.
 * Numbers listed in `failFor` get a 503 (to see retries).
 */
export async function startSmsGateway(): Promise<{
  url: string;
  received: Received[];
  failFor: Set<string>;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const failFor = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string; text: string };
        if (req.method !== 'POST' || typeof body.to !== 'string' || typeof body.text !== 'string')
          throw new Error('bad request');
        if (failFor.has(body.to)) {
          res.writeHead(503).end('busy');
          return;
        }
        received.push({ to: body.to, text: body.text });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
      } catch {
        res.writeHead(400).end('bad request');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/send`,
    received,
    failFor,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Waits (polling, up to `ms`) until `find` returns something; throws if it never does. */
export async function waitFor<T>(find: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error('waited in vain');
    await new Promise((r) => setTimeout(r, 50));
  }
}
