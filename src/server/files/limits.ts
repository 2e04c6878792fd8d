/** The uploader defaults of the spec: 5 files of 10 MB each. */
export const DEFAULT_MAX_FILES = 5;
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
/**
 * Upload requests an address may make in a minute when not signed in as staff (anonymous
 * visitors sending a public form, citizens): each may carry the entity's 5 × 10 MB.
 */
export const UPLOADS_PER_MINUTE = 30;

/** Types allowed when a definition names none: images, PDF, text, archives and office files. */
export const DEFAULT_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'application/zip',
  'application/x-cfb', // legacy .doc/.xls/.ppt (OLE2 container)
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
];

/** A size as people read it: `10 MB`, `500 KB`. */
export const formatBytes = (n: number): string =>
  n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MB` : `${Math.round(n / 1024)} KB`;
