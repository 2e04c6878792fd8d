import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IntegrationAgencyDefinition } from '../../definitions/registry.ts';

/** A fault the sandbox plays for an agency: answer every request with `status`, or after `delayMs`. */
export interface SandboxFault {
  status?: number;
  delayMs?: number;
}

/** The running sandbox upstream. */
export interface Sandbox {
  /** `http://127.0.0.1:<port>`: an agency's base is `<url>/<agency id>`. */
  url: string;
  /** Plays a fault for the agency until cleared with null (tests of the circuit breaker). */
  setFault(agency: string, fault: SandboxFault | null): void;
  /** Requests the agency has received since the start. */
  hits(agency: string): number;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 1_000_000) req.destroy(new Error('body too large'));
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

/** The fixture case that answers these parameters: the first whose params all equal them as text. */
function answerOf(
  def: IntegrationAgencyDefinition,
  methodId: string,
  given: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const cases = def.fixtures.get(methodId)?.cases ?? [];
  return cases.find((c) => Object.entries(c.params).every(([k, v]) => String(given[k] ?? '') === String(v)))?.body;
}

/**
 * The sandbox upstream (INTEGRATIONS=sandbox, and the tests): a small HTTP server on loopback
 * answering every agency's methods from their fixtures (schemas/_integrations/<agency>/fixtures),
 * at the paths and HTTP methods the definitions declare — the platform talks to it exactly as to
 * a real agency. Not found → 404; an unknown path → 404 with a message.
 * @example const sandbox = await startSandbox(registry.integrations); sandbox.url
 */
export async function startSandbox(
  integrations: ReadonlyMap<string, IntegrationAgencyDefinition>,
  port = 0,
): Promise<Sandbox> {
  const faults = new Map<string, SandboxFault>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const [, agencyId = '', ...rest] = url.pathname.split('/');
      const def = integrations.get(agencyId);
      const path = rest.join('/');
      const method = def
        ? [...def.methods.values()].find((m) => m.request.path === path && m.request.method === req.method)
        : undefined;
      if (!def || !method) return send(404, { message: `the sandbox has no ${req.method} ${url.pathname}` });
      hits.set(agencyId, (hits.get(agencyId) ?? 0) + 1);
      const fault = faults.get(agencyId);
      if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault?.status) return send(fault.status, { message: 'sandbox fault' });
      const given: Record<string, unknown> = Object.fromEntries(url.searchParams);
      if (req.method === 'POST') {
        const text = await readBody(req);
        if (text.trim()) Object.assign(given, JSON.parse(text) as Record<string, unknown>);
      }
      const body = answerOf(def, method.id, given);
      return body ? send(200, body) : send(404, { message: 'not found' });
    })().catch(() => {
      if (!res.headersSent) send(400, { message: 'bad request' });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    setFault: (agency, fault) => (fault ? faults.set(agency, fault) : faults.delete(agency)),
    hits: (agency) => hits.get(agency) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
