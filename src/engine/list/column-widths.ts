/**
 * How wide a list column must at least be so that nothing in it is cut: its header's longest
 * word (headers wrap between words, never inside one) and the longest text it shows, capped so
 * that one long name cannot take the whole table (such a cell ends in … and shows its whole text
 * on hover). Measured with the
 * page's font where the browser can (a canvas), else estimated per character.
 */

/** Header padding, the sort arrow and the resize handle. */
const HEADER_CHROME = 52;
/** Cell padding on both sides. */
const CELL_CHROME = 34;
/** A status badge's own padding and border, besides the cell's. */
const BADGE_CHROME = 20;
/** No column is narrower than this. */
export const MIN_COLUMN_WIDTH = 80;
/** Longer texts wrap rather than widen their column past this. */
export const MAX_CONTENT_WIDTH = 180;

const FONT = '14px "Segoe UI", "Segoe UI Web (West European)", -apple-system, BlinkMacSystemFont, Roboto, sans-serif';
const HEADER_FONT = `600 ${FONT}`;

let context: CanvasRenderingContext2D | null | undefined;

/** The width of `text` in pixels in `font`; ~8.2 px a character where nothing can measure. */
export function textWidth(text: string, font: string = FONT): number {
  if (context === undefined) {
    try {
      context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      context = null;
    }
  }
  if (!context) return Math.ceil(text.length * 8.2);
  context.font = font;
  return Math.ceil(context.measureText(text).width);
}

const longestWord = (text: string): string =>
  text.split(/\s+/).reduce((longest, word) => (word.length > longest.length ? word : longest), '');

export interface ColumnWidthInput {
  /** The header as shown. */
  header: string;
  /** The texts the column shows (this page's cells, or every status label). */
  texts: readonly string[];
  /** The texts are badges (statuses): they never wrap and need their own padding. */
  badge?: boolean;
}

/**
 * The least width of a column: its header's longest word, its longest text (a badge whole,
 * other text up to {@link MAX_CONTENT_WIDTH}).
 * @example minColumnWidth({ header: 'Status', texts: ['Under review'], badge: true }) // ≥ the badge's width
 */
export function minColumnWidth({ header, texts, badge }: ColumnWidthInput): number {
  const headerWidth = textWidth(longestWord(header), HEADER_FONT) + HEADER_CHROME;
  const content = texts.reduce((widest, text) => Math.max(widest, textWidth(text)), 0);
  const contentWidth = badge
    ? content + BADGE_CHROME + CELL_CHROME
    : Math.min(content + CELL_CHROME, MAX_CONTENT_WIDTH);
  return Math.max(MIN_COLUMN_WIDTH, headerWidth, contentWidth);
}
