import { Button, Title1, Body1 } from '@fluentui/react-components';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** Any path no screen claims. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <div data-screen="not-found" style={{ padding: '48px 16px', textAlign: 'center' }}>
      <Title1 as="h1">404</Title1>
      <Body1 as="p">{t('app.notFound')}</Body1>
      <Link to="/"><Button appearance="primary" data-action="home">{t('app.home')}</Button></Link>
    </div>
  );
}
