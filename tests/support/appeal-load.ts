/**
 * The public-appeal load of `bench:appeals`, `bench:cluster` and the cluster kill test: a
 * visitor's multipart submission (the appeal as JSON plus a real PNG, and a PDF every other
 * time) from its own loopback address, with an Idempotency-Key.
 */
import http from 'node:http';
import { PDF, PNG } from './multipart.ts';
import { appealInput, submission } from './public-samples.ts';

/** The public form's endpoint. */
export const SEND_APPEAL = '/api/outer-cabinet/send-appeal';

/**
 * A distinct loopback address for the i-th request (127.16.0.0/12, never .0 or .255 in the last
 * octets): Linux routes all of 127/8 to `lo`, so every visitor has its own address and the
 * per-address submission limit stays on without being what is measured.
 */
export const addressOf = (i: number): string =>
  `127.${16 + Math.floor(i / (254 * 254))}.${(Math.floor(i / 254) % 254) + 1}.${(i % 254) + 1}`;

/** What one submission came to: status 0 is a connection error. */
export interface AppealOutcome {
  status: number;
  ms: number;
  /** The appeal's id when acknowledged (200). */
  id?: number;
  /** Attachments sent with an acknowledged appeal. */
  files: number;
  error?: string;
}

/** How many attachments the i-th appeal carries (one or two). */
export const attachmentsOf = (i: number): number => (i % 2 === 0 ? 1 : 2);

/**
 * One visitor's submission of appeal `i` on a fresh connection from its own address; `key` is
 * its Idempotency-Key (the same key again is a retry of the same appeal).
 * @example const outcome = await sendAppeal(8080, 7, `bench-${runId}-7`)
 */
export function sendAppeal(port: number, i: number, key: string): Promise<AppealOutcome> {
  const files = [
    { name: `receipt-${i}.png`, type: 'image/png', content: PNG },
    ...(attachmentsOf(i) === 2 ? [{ name: `contract-${i}.pdf`, type: 'application/pdf', content: PDF }] : []),
  ];
  const body = submission(
    appealInput(i, {
      customer: { surname: 'Karimov', name: 'Jasur', pnfl: `3120589${String(i).padStart(7, '0').slice(-7)}` },
    }),
    files,
  );
  const t0 = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - t0) / 1e6;
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: SEND_APPEAL,
        method: 'POST',
        localAddress: addressOf(i),
        agent: false,
        headers: {
          ...body.headers,
          'content-length': String(body.payload.length),
          'idempotency-key': key,
          'accept-language': 'en',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => resolve({ status: 0, ms: elapsed(), files: 0, error: e.message }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200)
            resolve({ status: 200, ms: elapsed(), id: (JSON.parse(text) as { id: number }).id, files: files.length });
          else resolve({ status: res.statusCode ?? 0, ms: elapsed(), files: 0, error: text.slice(0, 200) });
        });
      },
    );
    req.on('error', (e) => resolve({ status: 0, ms: elapsed(), files: 0, error: e.message }));
    req.end(body.payload);
  });
}

/** The p-th percentile of ascending numbers (NaN for none). */
export const percentile = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

/** Outcomes that were not acknowledged, grouped by status and message: `[what, how many]`. */
export function errorsOf(outcomes: AppealOutcome[]): Array<[string, number]> {
  const errors = new Map<string, number>();
  for (const o of outcomes.filter((x) => x.status !== 200)) {
    const what = `${o.status} ${o.error ?? ''}`.slice(0, 120);
    errors.set(what, (errors.get(what) ?? 0) + 1);
  }
  return [...errors];
}
