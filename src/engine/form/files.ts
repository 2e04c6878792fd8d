/**
 * Pure helpers of the file uploader: sizes in Bytes/KB/MB/GB and icons by extension (spec §9).
 */

/** Uploader defaults (spec §5, §9): at most 5 files of at most 10 MB each. */
export const DEFAULT_MAX_FILES = 5;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/** Unit names, in the order Bytes, KB, MB, GB (translated by the widget). */
export type SizeUnits = readonly [string, string, string, string];

/**
 * A size for people: binary steps, at most two decimals, trailing zeros dropped.
 * @example formatFileSize(1536) // '1.5 KB'
 * @example formatFileSize(10485760) // '10 MB'
 */
export function formatFileSize(bytes: number, units: SizeUnits = ['Bytes', 'KB', 'MB', 'GB']): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 ? String(Math.round(value)) : String(Number(value.toFixed(2)));
  return `${shown} ${units[unit]}`;
}

/** The icon kinds of the uploader's list. */
export type FileIconKind = 'image' | 'txt' | 'pdf' | 'pptx' | 'zip' | 'xlsx' | 'doc' | 'docx' | 'other';

const BY_EXTENSION: Record<string, FileIconKind> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  bmp: 'image',
  webp: 'image',
  svg: 'image',
  tif: 'image',
  tiff: 'image',
  heic: 'image',
  txt: 'txt',
  pdf: 'pdf',
  ppt: 'pptx',
  pptx: 'pptx',
  zip: 'zip',
  rar: 'zip',
  '7z': 'zip',
  xls: 'xlsx',
  xlsx: 'xlsx',
  doc: 'doc',
  docx: 'docx',
};

// The types the server tells by their magic bytes (plugins/files.ts); the OLE2 container of
// legacy .doc/.xls/.ppt is not here: it says nothing of which of the three a file is.
const BY_MIME: Record<string, FileIconKind> = {
  'text/plain': 'txt',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/**
 * The icon kind of a file by its extension (spec §9), or, without a known one, by its mime
 * type (a file named without an extension).
 * @example fileIconKind('Report.DOCX') // 'docx'
 * @example fileIconKind('scan', 'application/pdf') // 'pdf'
 */
export function fileIconKind(name: string, mime?: string): FileIconKind {
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  return BY_EXTENSION[ext] ?? (mime?.startsWith('image/') ? 'image' : (mime && BY_MIME[mime]) || 'other');
}

/**
 * Whether a file matches an `accept` list (`image/*`, `application/pdf`, `.docx`).
 * An empty list accepts everything.
 */
export function isAccepted(file: { name: string; type: string }, accept: readonly string[]): boolean {
  if (!accept.length) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept.some((raw) => {
    const a = raw.trim().toLowerCase();
    if (!a) return false;
    if (a.startsWith('.')) return name.endsWith(a);
    if (a.endsWith('/*')) return type.startsWith(a.slice(0, -1));
    return type === a;
  });
}
