/** The floor of a first visit: the shell with a page of one translated line. */
import { useTranslation } from 'react-i18next';
import { ability, mountShell } from './shell.tsx';

function Page() {
  const { t } = useTranslation();
  return <h1>{ability.can('read', 'all') ? t('title') : null}</h1>;
}

mountShell(<Page />);
