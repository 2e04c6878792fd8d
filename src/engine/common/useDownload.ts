import { useCallback, type MouseEvent } from 'react';
import { useOptionalApi } from '../../client/react/context.tsx';

/** Saves a blob under a name through a temporary link (the browser's own download). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The click handler of a download link (an export, a record's file): a plain link carries no
 * bearer token, so a signed-in user's click fetches the file through the session's HTTP
 * client (token, renewal, the server's refusal shown as any other failure) and saves it under
 * the server's name. The link keeps its `href`, so it can still be copied, and a visitor
 * without a session — or a test without a client — follows it as a plain link.
 * @example <a href={exportHref} download onClick={onDownload}>Export</a>
 */
export function useDownloadClick(): (event: MouseEvent<HTMLAnchorElement | HTMLButtonElement>) => void {
  const api = useOptionalApi();
  const http = api?.http;
  const reportError = api?.reportError;
  return useCallback(
    (event) => {
      const href = event.currentTarget.getAttribute('href');
      if (!http || !href || event.defaultPrevented) return;
      // A modified click (new tab, save as) is the browser's own business.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      http.download(href).then(
        (file) => saveBlob(file.blob, file.name),
        (error: unknown) => reportError?.(error),
      );
    },
    [http, reportError],
  );
}
