/**
 * The room a dashboard panel's body keeps before its answer arrives, by kind, so that nothing
 * below it moves when the answer lands (Lighthouse's layout shift): the same box holds the
 * loading skeleton, the "no data" notice, an error, and the table or chart.
 */

/** The chart's height as apexcharts draws it (its `height`). */
export const CHART_HEIGHT = 320;

/** The chart's box: apexcharts sets its container's min-height 15 px above the chart's (the legend's room). */
export const CHART_BOX_HEIGHT = CHART_HEIGHT + 15;

/**
 * The rows a table panel keeps room for (and its skeleton shows) unless its definition says
 * how many its answer has (`reservedRows`): a phone's first screenful.
 */
export const TABLE_RESERVED_ROWS = 10;

/** Below this width a table's rows are cards of "column: value" lines (styles.ts `stacked`). */
export const STACKED_MEDIA = '@media (max-width: 640px)';

/** A card's own height: 4 px padding above and below, and its 2 px bottom border. */
export const CARD_PADDING = 10;

/** One "column: value" line of a card: 4 px padding above and below a 20 px line. */
export const CARD_LINE_HEIGHT = 28;

/** The CSS variables the table's box and skeleton read: the rows to keep room for, and the columns (a card's lines). */
export const RESERVED_ROWS_VAR = '--reserved-rows';
export const RESERVED_LINES_VAR = '--reserved-lines';

/** One table row: 8 px padding above and below a 20 px line, and its 1 px border. */
export const TABLE_ROW_HEIGHT = 37;

/** The header row: as a row, with a 2 px border. */
export const TABLE_HEADER_HEIGHT = 38;
