import { makeStyles, tokens } from '@fluentui/react-components';

/** The dashboard's styles: filters, panels, tables (a card per row on a phone), the pager. */
export const useStyles = makeStyles({
  root: {
    maxWidth: '1100px',
    margin: '0 auto',
    padding: '8px 0 32px',
    display: 'grid',
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
  panel: { display: 'grid', gap: tokens.spacingVerticalS, minWidth: 0 },
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
  details: { fontSize: tokens.fontSizeBase300 },
  pager: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalM },
  // On a phone each row becomes a card of "column: value" lines, so no value hides off-screen.
  stacked: {
    '@media (max-width: 640px)': {
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
