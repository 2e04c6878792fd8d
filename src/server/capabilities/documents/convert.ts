import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApiError } from '../../errors.ts';

/** How a DOCX becomes a PDF: LibreOffice's path, how many conversions at once, and how long one may take. */
export interface ConverterSettings {
  /** The `soffice` program (SOFFICE_PATH, default `soffice` on the PATH). */
  sofficePath: string;
  /** Conversions running at once, each with its own LibreOffice profile (DOCGEN_POOL_SIZE, default 2). */
  poolSize: number;
  /** A conversion that takes longer is stopped and reported as failed (DOCGEN_TIMEOUT_MS, default 60 000). */
  timeoutMs: number;
}

/** The defaults of {@link ConverterSettings}. */
export const DEFAULT_CONVERTER: ConverterSettings = { sofficePath: 'soffice', poolSize: 2, timeoutMs: 60_000 };

/** Whether `soffice` names a program that exists: a path is looked at, a bare name is looked for on the PATH. */
export function sofficeExists(soffice: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (soffice.includes('/')) return existsSync(soffice);
  return (env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, soffice)));
}

/** A DOCX → PDF converter: at most `poolSize` LibreOffice processes at once; the rest wait their turn. */
export interface PdfConverter {
  /** The PDF of a DOCX; throws ApiError 503 without LibreOffice, 500 when the conversion fails. */
  convert(docx: Buffer): Promise<Buffer>;
  /** Removes the profiles the pool made (on app close). */
  close(): Promise<void>;
}

/**
 * A converter reading its settings at each call (`settings()`), so a changed path takes effect
 * without a restart and a missing LibreOffice is an error of the call, never of the start-up.
 * Each pool slot keeps its own LibreOffice profile (`-env:UserInstallation`): two soffice
 * processes on one profile block or fail each other, and a kept profile makes later
 * conversions of the slot faster (the warm path).
 */
export function createPdfConverter(settings: () => ConverterSettings): PdfConverter {
  const base = path.join(os.tmpdir(), `docgen-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  const free: number[] = [];
  let made = 0;
  const waiting: Array<(slot: number) => void> = [];

  const acquire = (limit: number): Promise<number> => {
    const slot = free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    if (made < limit) return Promise.resolve(made++);
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (slot: number) => {
    const next = waiting.shift();
    if (next) next(slot);
    else free.push(slot);
  };

  const run = (soffice: string, args: string[], timeoutMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      // Its own process group, so that a timeout ends soffice and the helper it starts.
      const child = spawn(soffice, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-2000);
      });
      const timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
        reject(new Error(`soffice took longer than ${timeoutMs} ms`));
      }, timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`soffice exited with ${code}: ${stderr.trim()}`));
      });
    });

  return {
    async convert(docx) {
      const { sofficePath, poolSize, timeoutMs } = settings();
      if (!sofficeExists(sofficePath)) throw new ApiError(503, 'docgen.noConverter');
      const slot = await acquire(Math.max(1, poolSize));
      const work = await mkdtemp(path.join(os.tmpdir(), 'docgen-job-'));
      try {
        const input = path.join(work, 'document.docx');
        await writeFile(input, docx);
        const profile = pathToFileURL(path.join(base, `profile-${slot}`)).href;
        await run(
          sofficePath,
          [
            `-env:UserInstallation=${profile}`,
            '--headless',
            '--norestore',
            '--convert-to',
            'pdf',
            '--outdir',
            work,
            input,
          ],
          timeoutMs,
        );
        const pdf = await readFile(path.join(work, 'document.pdf')).catch(() => undefined);
        if (!pdf || pdf.subarray(0, 4).toString() !== '%PDF') throw new Error('soffice wrote no PDF');
        return pdf;
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if ((error as { code?: string }).code === 'ENOENT') throw new ApiError(503, 'docgen.noConverter');
        // The reason (LibreOffice's own words, paths) is for the server's log, not for the caller.
        throw Object.assign(new ApiError(500, 'docgen.convertFailed'), { cause: error });
      } finally {
        release(slot);
        await rm(work, { recursive: true, force: true });
      }
    },
    async close() {
      await rm(base, { recursive: true, force: true });
    },
  };
}
