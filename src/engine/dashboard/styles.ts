import { makeStyles, tokens } from '@fluentui/react-components';
import {
  CARD_LINE_HEIGHT,
  CARD_PADDING,
  CHART_BOX_HEIGHT,
  RESERVED_LINES_VAR,
  RESERVED_ROWS_VAR,
  STACKED_MEDIA,
  TABLE_HEADER_HEIGHT,
  TABLE_ROW_HEIGHT,
} from './sizes.ts';

/** A card's height on a phone: its padding and a line per column (sizes.ts). */
const CARD_HEIGHT = `(${CARD_PADDING}px + var(${RESERVED_LINES_VAR}) * ${CARD_LINE_HEIGHT}px)`;

/** The dashboard's styles: filters, panels, tables (a card per row on a phone), the pager. */
export const useStyles = makeStyles({
  root: {
    maxWidth: '1100px',
    margin: '0 auto',
    padding: '8px 0 32px',
    display: 'grid',
    // One column never wider than the page: a wide chart or table scrolls inside its panel.
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: tokens.spacingVerticalL,
    minWidth: 0,
  },
  filters: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalL },
  filter: { display: 'grid', gap: '4px', minWidth: '200px', flex: '1 1 200px', fontWeight: tokens.fontWeightSemibold },
  control: {
    font: 'inherit',
    fontWeight: tokens.fontWeightRegular,
    padding: '8px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    minHeight: '40px',
    width: '100%',
  },
  heading: { display: 'grid', gap: '2px' },
  periodWords: { margin: 0, fontSize: tokens.fontSizeBase400, color: tokens.colorNeutralForeground2 },
  // The period picker: one bordered group of its unit and value controls.
  period: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalS,
    margin: 0,
    padding: '4px 0 0',
    border: 'none',
    minWidth: 0,
    flex: '2 1 300px',
    '& > select, & > input': { width: 'auto', minWidth: '120px', flex: '1 1 120px' },
  },
  legend: { fontWeight: tokens.fontWeightSemibold, padding: 0, marginBottom: '4px' },
  days: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'flex-start' },
  error: { flexBasis: '100%', color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
  tabs: { overflowX: 'auto', maxWidth: '100%' },
  panels: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: tokens.spacingVerticalXXL, minWidth: 0 },
  panel: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: tokens.spacingVerticalS, minWidth: 0 },
  panelHead: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'baseline',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  description: { margin: 0, color: tokens.colorNeutralForeground2 },
  download: { fontSize: tokens.fontSizeBase300, whiteSpace: 'nowrap' },
  thNum: {
    textAlign: 'right',
    padding: '8px',
    borderBottom: `2px solid ${tokens.colorNeutralStroke1}`,
    whiteSpace: 'nowrap',
  },
  thGroup: {
    textAlign: 'center',
    padding: '8px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke1}`,
    whiteSpace: 'nowrap',
  },
  groupHeading: {
    textAlign: 'left',
    padding: '12px 8px 4px',
    backgroundColor: tokens.colorNeutralBackground3,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  totalRow: { fontWeight: tokens.fontWeightSemibold, backgroundColor: tokens.colorNeutralBackground2 },
  compare: { display: 'block', fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground2 },
  up: { color: tokens.colorPaletteGreenForeground1 },
  down: { color: tokens.colorPaletteRedForeground1 },
  visuallyHidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
  // Number tiles wrap: four abreast on a desktop, one or two on a phone.
  tiles: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  tile: {
    display: 'grid',
    alignContent: 'start',
    gap: '4px',
    padding: '12px 16px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  tileNumber: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
  },
  tileTitle: { color: tokens.colorNeutralForeground2 },
  h2: { fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500, margin: 0 },
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  table: { borderCollapse: 'collapse', width: '100%', fontSize: tokens.fontSizeBase300 },
  th: {
    textAlign: 'left',
    padding: '8px',
    borderBottom: `2px solid ${tokens.colorNeutralStroke1}`,
    whiteSpace: 'nowrap',
  },
  td: { padding: '8px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  num: {
    padding: '8px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    textAlign: 'right',
    whiteSpace: 'nowrap',
  },
  details: { fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  // A panel's body keeps its kind's room in every state (sizes.ts): a chart's box and the
  // line of its "as a table" summary; a table's header and its reserved rows.
  // Laid out as the panel lays out its parts (a table, a notice and a pager; a chart and its summary).
  body: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    alignContent: 'start',
    gap: tokens.spacingVerticalS,
    minWidth: 0,
  },
  chartBody: {
    minHeight: `calc(${CHART_BOX_HEIGHT}px + ${tokens.spacingVerticalS} + ${tokens.lineHeightBase300})`,
  },
  chartBox: { minHeight: `${CHART_BOX_HEIGHT}px` },
  // The header and the reserved rows (Panel.tsx sets the variables); on a phone as many cards, with no header.
  tableBody: {
    minHeight: `calc(${TABLE_HEADER_HEIGHT}px + var(${RESERVED_ROWS_VAR}) * ${TABLE_ROW_HEIGHT}px)`,
    [STACKED_MEDIA]: { minHeight: `calc(var(${RESERVED_ROWS_VAR}) * ${CARD_HEIGHT})` },
  },
  skeleton: { display: 'grid', gap: 0 },
  skeletonHeader: {
    height: `${TABLE_HEADER_HEIGHT}px`,
    display: 'flex',
    alignItems: 'center',
    [STACKED_MEDIA]: { display: 'none' },
  },
  skeletonRow: {
    height: `${TABLE_ROW_HEIGHT}px`,
    display: 'flex',
    alignItems: 'center',
    [STACKED_MEDIA]: { height: `calc${CARD_HEIGHT}` },
  },
  skeletonBar: {
    height: '12px',
    width: '100%',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  pager: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  // On a phone each row becomes a card of "column: value" lines, so no value hides off-screen.
  stacked: {
    [STACKED_MEDIA]: {
      '& thead': { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clipPath: 'inset(50%)' },
      '& tr': { display: 'block', borderBottom: `2px solid ${tokens.colorNeutralStroke1}`, padding: '4px 0' },
      '& td': {
        display: 'flex',
        justifyContent: 'space-between',
        gap: '12px',
        textAlign: 'right',
        borderBottom: 'none',
        padding: '4px 8px',
        whiteSpace: 'normal',
      },
      '& td::before': { content: 'attr(data-label)', textAlign: 'left', color: tokens.colorNeutralForeground2 },
      // The first column names the row (the good, the fuel, the station): the card's title.
      '& td:first-child': { fontWeight: tokens.fontWeightSemibold, textAlign: 'left' },
      '& td:first-child::before': { content: 'none' },
    },
  },
});
