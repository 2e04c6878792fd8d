import { sofficeExists } from '../../src/server/capabilities/documents/convert.ts';

/** Why LibreOffice tests cannot run here (no `soffice` on the PATH or at SOFFICE_PATH), or undefined. */
export function libreofficeMissing(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const soffice = env.SOFFICE_PATH || 'soffice';
  return sofficeExists(soffice, env)
    ? undefined
    : `LibreOffice is not installed (${soffice} not found; apt-get install libreoffice-writer-nogui)`;
}

/**
 * Whether tests that convert DOCX to PDF can run: without LibreOffice they skip with the
 * reason on a laptop and fail under REQUIRE_LIBREOFFICE=1 (set by CI, which installs it), as
 * REQUIRE_POSTGRES / REQUIRE_RABBITMQ do.
 */
export function libreofficeTestsEnabled(
  reason: string | undefined = libreofficeMissing(),
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (reason && env.REQUIRE_LIBREOFFICE === '1') throw new Error(`REQUIRE_LIBREOFFICE=1 but ${reason}`);
  if (reason)
    console.warn(`[tests] LibreOffice tests are SKIPPED: ${reason}. REQUIRE_LIBREOFFICE=1 makes this a failure.`);
  return !reason;
}

/** The text of every page of a PDF, read with pdfjs-dist's Node build. */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages.join('\n');
}
