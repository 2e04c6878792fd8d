/**
 * An acknowledged appeal survives a crash: the portal runs as a child process on PostgreSQL,
 * appeals are sent in a stream (several in flight, each with its idempotency key, from
 * several loopback addresses so the per-address limit does not refuse them), the process is
 * killed with SIGKILL in the middle, then started again. Every appeal that got a reference
 * number is there with that number; none is stored twice — also after the unanswered ones
 * are sent again with the same keys — and the numbers have no gaps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createTestDatabase, postgresAvailable } from '../support/databases.ts';
import { selectedDatabases } from '../support/test-selection.ts';
import { freePort } from '../support/browser.ts';
import { appealInput, REFERENCE_PATTERN, submission } from '../support/public-samples.ts';

const hasPostgres = postgresAvailable();
if (!hasPostgres && process.env.REQUIRE_POSTGRES === '1' && selectedDatabases().includes('postgres'))
  throw new Error('REQUIRE_POSTGRES=1 but PostgreSQL is unavailable');

describe.skipIf(!hasPostgres)('public appeals across a SIGKILL (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  let port: number;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-crash-'));
    port = await freePort();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts `src/server/main.ts` and resolves once it answers /api/health. */
  const start = async (): Promise<ChildProcess> => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: 'crash-test-admin',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    for (let i = 0; i < 600; i++) {
      if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}`);
      const ok = await new Promise<boolean>((resolve) => {
        http
          .get({ host: '127.0.0.1', port, path: '/api/health' }, (res) => {
            res.resume();
            resolve(res.statusCode === 200);
          })
          .on('error', () => resolve(false));
      });
      if (ok) return proc;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the server did not start');
  };

  /** One submission over a fresh connection from `localAddress`; a dropped connection rejects. */
  const send = (key: string, i: number): Promise<{ status: number; body: { referenceNumber?: string } }> => {
    const { payload, headers } = submission(appealInput(i, { shortDescription: `crash ${key}` }));
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/outer-cabinet/send-appeal',
          localAddress: `127.0.0.${2 + (i % 50)}`,
          agent: false,
          headers: { ...headers, 'content-length': String(payload.length), 'idempotency-key': key },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  };

  it('keeps every acknowledged appeal exactly once', async () => {
    child = await start();
    const acknowledged = new Map<string, string>();
    const unanswered = new Set<string>();
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const i = next++;
        const key = `crash-key-${String(i).padStart(6, '0')}`;
        try {
          const res = await send(key, i);
          if (res.status === 200) acknowledged.set(key, res.body.referenceNumber!);
          else unanswered.add(key);
        } catch {
          unanswered.add(key);
        }
        // Kill mid-stream, while the other workers' requests are in flight.
        if (acknowledged.size >= 40 && !killed) {
          killed = true;
          child!.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    await new Promise<void>((resolve) =>
      child!.exitCode !== null || child!.signalCode !== null ? resolve() : child!.once('exit', () => resolve()),
    );
    expect(child.signalCode).toBe('SIGKILL');
    expect(acknowledged.size).toBeGreaterThanOrEqual(40);
    for (const ref of acknowledged.values()) expect(ref).toMatch(REFERENCE_PATTERN);

    child = await start();
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const stored = async () =>
        (
          await db.query<{ description: string; n: number; reference: string | null }>(
            `SELECT a.data->>'shortDescription' AS description, count(*)::int AS n, max(s.reference) AS reference
         FROM e_appeal a LEFT JOIN public_submission s ON s.entity = 'appeal' AND s.record_id = a.id
         WHERE a.data->>'shortDescription' LIKE 'crash %' GROUP BY 1`,
          )
        ).rows;
      const rows = new Map((await stored()).map((r) => [r.description.slice('crash '.length), r]));
      for (const [key, reference] of acknowledged) {
        expect(rows.get(key), key).toMatchObject({ n: 1, reference });
      }
      expect([...rows.values()].every((r) => r.n === 1)).toBe(true);

      // The unanswered ones, sent again with their keys: each is stored once (again or first time).
      for (const key of unanswered) {
        const res = await send(key, Number(key.slice(-6)));
        expect(res.status).toBe(200);
        expect(res.body.referenceNumber).toMatch(REFERENCE_PATTERN);
      }
      const after = await stored();
      expect(after.length).toBe(acknowledged.size + unanswered.size);
      expect(after.every((r) => r.n === 1 && r.reference !== null)).toBe(true);
      // The numbers have no gaps: the ones taken by transactions the kill cut short were never given.
      const numbers = after.map((r) => Number(r.reference!.slice(-6))).sort((a, b) => a - b);
      expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    } finally {
      await db.end();
    }
  });
});
