import { PersonRegular, SignOutRegular } from '@fluentui/react-icons';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { makeStyles } from '@fluentui/react-components';
import { getSetting } from '../settings.ts';
import { signOut } from '../session.ts';
import { ShellButton } from './primitives.tsx';

const useStyles = makeStyles({
  // On a phone the header holds the menu, language, counters and sign-out; the name yields.
  name: { maxWidth: '160px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', '@media (max-width: 419px)': { display: 'none' } },
});

/** The header's account corner: who is signed in and a way out, or a way in. */
export function UserMenu() {
  const { t } = useTranslation();
  const s = useStyles();
  const user = getSetting('userInfo');
  if (!getSetting('accessToken') || !user) {
    return (
      <Link to="/login" tabIndex={-1} style={{ color: 'inherit' }}>
        <ShellButton appearance="subtle" data-action="open-sign-in" style={{ whiteSpace: 'nowrap' }}><PersonRegular fontSize={20} />{t('auth.signIn')}</ShellButton>
      </Link>
    );
  }
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }} data-user={user.username}>
      <PersonRegular fontSize={20} aria-hidden />
      <span className={s.name}>{[user.firstName, user.lastName].filter(Boolean).join(' ') || user.username}</span>
      <ShellButton appearance="subtle" data-action="sign-out" title={t('auth.signOut')} aria-label={t('auth.signOut')} onClick={() => void signOut()}>
        <SignOutRegular fontSize={20} />
      </ShellButton>
    </span>
  );
}
