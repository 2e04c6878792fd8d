import { PersonRegular, SignOutRegular } from '@fluentui/react-icons';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { makeStyles } from '@fluentui/react-components';
import { getSetting } from '../../client/settings.ts';
import { signOut } from '../../client/session.ts';
import { screens } from '../../definitions/client.ts';
import { ShellButton } from '../../engine/common/primitives.tsx';
import { useAvatar } from '../../engine/common/useAvatar.ts';

/** The route of the profile screen, if the definitions have one. */
const profileRoute = screens.find((s) => s.kind === 'profile')?.route;

const useStyles = makeStyles({
  // On a phone the header holds the menu, language, counters and sign-out; the name yields.
  name: {
    maxWidth: '160px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    '@media (max-width: 419px)': { display: 'none' },
  },
});

/** The header's account corner: who is signed in (avatar and name → the profile) and a way out, or a way in. */
export function UserMenu() {
  const { t } = useTranslation();
  const s = useStyles();
  const user = getSetting('userInfo');
  const avatar = useAvatar();
  if (!getSetting('accessToken') || !user) {
    return (
      <Link to="/login" tabIndex={-1} style={{ color: 'inherit' }}>
        <ShellButton appearance="subtle" data-action="open-sign-in" style={{ whiteSpace: 'nowrap' }}>
          <PersonRegular fontSize={20} />
          {t('auth.signIn')}
        </ShellButton>
      </Link>
    );
  }
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
  const who = (
    <>
      {/* Light markup, not Fluent's Avatar: the header is part of every first visit's bundle. */}
      {avatar ? (
        <img
          src={avatar}
          alt=""
          width={28}
          height={28}
          data-avatar="image"
          style={{ borderRadius: '50%', objectFit: 'cover' }}
        />
      ) : (
        <PersonRegular fontSize={20} aria-hidden data-avatar="none" />
      )}
      <span className={s.name}>{name}</span>
    </>
  );
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }} data-user={user.username}>
      {profileRoute ? (
        <Link
          to={profileRoute}
          data-action="open-profile"
          title={t('auth.profile')}
          style={{ color: 'inherit', display: 'inline-flex', alignItems: 'center', gap: 6, textDecoration: 'none' }}
        >
          {who}
        </Link>
      ) : (
        who
      )}
      <ShellButton
        appearance="subtle"
        data-action="sign-out"
        title={t('auth.signOut')}
        aria-label={t('auth.signOut')}
        onClick={() => void signOut()}
      >
        <SignOutRegular fontSize={20} />
      </ShellButton>
    </span>
  );
}
