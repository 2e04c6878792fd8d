import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Heading, Paragraph, ShellButton } from '../../engine/common/primitives.tsx';

/** Any path no screen claims. */
export function NotFound() {
  const { t, i18n } = useTranslation();
  // Screens set the title from their definition; a path without one still says where the user is, in their language.
  useEffect(() => {
    document.title = `${t('app.notFound')} — ${t('app.shortTitle')}`;
  }, [t, i18n.language]);
  return (
    <div data-screen="not-found" style={{ padding: '48px 16px', textAlign: 'center' }}>
      <Heading>404</Heading>
      <Paragraph>{t('app.notFound')}</Paragraph>
      <Link to="/" tabIndex={-1}>
        <ShellButton appearance="primary" data-action="home">
          {t('app.home')}
        </ShellButton>
      </Link>
    </div>
  );
}
