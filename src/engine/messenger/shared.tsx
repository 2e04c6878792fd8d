/** What the messenger's pieces share: the open chat, the styles and small formatters (the REST shapes: client/provider/messenger.ts). */
import { makeStyles, tokens } from '@fluentui/react-components';
import type { ChatRef } from '../../client/data-provider.ts';

export type { ChatRow, Contact, GroupRow, Message } from '../../client/data-provider.ts';
/** The chat shown on the right: which one, and its title and photo. */
export type Open = ChatRef & { title: string; photo?: string | null | undefined };

export const PAGE = 30;
export const useStyles = makeStyles({
  root: {
    display: 'flex',
    height: 'calc(100dvh - 96px)',
    minHeight: '420px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  side: {
    width: '320px',
    flexShrink: 0,
    display: 'flex',
    flexDirection: 'column',
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    '@media (max-width: 767px)': { width: '100%', borderRight: 'none' },
  },
  main: { flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
  hidePhone: { '@media (max-width: 767px)': { display: 'none' } },
  list: { overflowY: 'auto', flexGrow: 1 },
  row: {
    display: 'flex',
    alignItems: 'center',
    gap: '10px',
    padding: '8px 12px',
    cursor: 'pointer',
    border: 'none',
    background: 'none',
    width: '100%',
    textAlign: 'left',
    color: 'inherit',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  rowActive: { backgroundColor: tokens.colorBrandBackground2 },
  rowText: { minWidth: 0, flexGrow: 1, display: 'flex', flexDirection: 'column' },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  head: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '8px 12px',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    minHeight: '48px',
  },
  messages: { flexGrow: 1, overflowY: 'auto', padding: '12px', display: 'flex', flexDirection: 'column', gap: '6px' },
  bubble: {
    maxWidth: 'min(80%, 560px)',
    padding: '6px 10px',
    borderRadius: '10px',
    backgroundColor: tokens.colorNeutralBackground3,
    overflowWrap: 'anywhere',
    whiteSpace: 'pre-wrap',
  },
  mine: { alignSelf: 'flex-end', backgroundColor: tokens.colorBrandBackground2 },
  meta: {
    display: 'flex',
    gap: '6px',
    alignItems: 'center',
    justifyContent: 'flex-end',
    fontSize: tokens.fontSizeBase100,
    color: tokens.colorNeutralForeground3,
  },
  file: {
    display: 'flex',
    alignItems: 'center',
    gap: '6px',
    cursor: 'pointer',
    border: 'none',
    background: 'none',
    padding: 0,
    color: tokens.colorBrandForeground1,
    textAlign: 'left',
    maxWidth: '100%',
    minWidth: 0,
  },
  fileIcon: { fontSize: '20px', flexShrink: 0, display: 'inline-flex' },
  composer: {
    display: 'flex',
    alignItems: 'flex-end',
    gap: '6px',
    padding: '8px',
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  grow: { flexGrow: 1, minWidth: 0 },
  quote: {
    borderLeft: `3px solid ${tokens.colorBrandStroke1}`,
    paddingLeft: '6px',
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground2,
    marginBottom: '4px',
  },
  empty: { margin: 'auto', color: tokens.colorNeutralForeground3, padding: '16px', textAlign: 'center' },
});

export const nameOf = (c: { firstName: string; lastName: string }) =>
  [c.lastName, c.firstName].filter(Boolean).join(' ');
