import { makeStyles, tokens } from '@fluentui/react-components';

/** The permission matrix's table: a sticky first column, compact check-box columns, scrolling inside on a phone. */
export const useMatrixStyles = makeStyles({
  root: { width: '100%', minWidth: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  filter: { maxWidth: '360px' },
  // The table scrolls by itself on a narrow screen; the page does not.
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  table: { borderCollapse: 'collapse', width: '100%', fontSize: tokens.fontSizeBase300 },
  subjectHead: {
    textAlign: 'start',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke1}`,
    position: 'sticky',
    left: 0,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  head: {
    textAlign: 'center',
    fontWeight: tokens.fontWeightSemibold,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalXS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke1}`,
    whiteSpace: 'nowrap',
  },
  subject: {
    textAlign: 'start',
    fontWeight: tokens.fontWeightRegular,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    position: 'sticky',
    left: 0,
    backgroundColor: tokens.colorNeutralBackground1,
    minWidth: '140px',
    maxWidth: '260px',
  },
  cell: { textAlign: 'center', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, minWidth: '44px' },
  actionsCell: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, minWidth: '120px' },
  events: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: `0 ${tokens.spacingHorizontalL}`,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalL}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  event: { display: 'inline-flex' },
  tick: { color: tokens.colorPaletteGreenForeground1, fontSize: '20px', display: 'inline-flex' },
  implied: { color: tokens.colorNeutralForeground4, fontSize: '20px', display: 'inline-flex' },
  none: { display: 'inline-block', width: '20px' },
  // Kept in sight on a phone while the wide table beside it scrolls.
  granted: {
    display: 'block',
    position: 'sticky',
    left: tokens.spacingHorizontalS,
    maxWidth: 'calc(100vw - 64px)',
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground2,
  },
  grantedHead: { fontWeight: tokens.fontWeightSemibold },
  grantedRow: {
    padding: `0 ${tokens.spacingHorizontalS} ${tokens.spacingVerticalXS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  empty: { margin: 0, color: tokens.colorNeutralForeground3 },
  others: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
});
