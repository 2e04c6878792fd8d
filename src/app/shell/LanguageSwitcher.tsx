import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { GlobeRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../../shared/locales.ts';
import { changeLocale } from '../i18n.ts';

/** Each language named in itself, so anyone can find theirs. */
export const LOCALE_NAMES: Record<Locale, string> = { uz: 'O‘zbekcha', uzCyrillic: 'Ўзбекча', ru: 'Русский', en: 'English' };

/** The header's language menu: switching re-renders without a reload and is remembered. */
export function LanguageSwitcher() {
  const { i18n, t } = useTranslation();
  const current = i18n.language as Locale;
  return (
    <Menu checkedValues={{ locale: [current] }} onCheckedValueChange={(_e, d) => void changeLocale(d.checkedItems[0] as Locale)}>
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="subtle" icon={<GlobeRegular />} data-action="language" aria-label={t('app.language')}>
          {LOCALE_NAMES[current] ?? current}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {LOCALES.map((l) => (
            <MenuItemRadio key={l} name="locale" value={l} data-locale={l}>{LOCALE_NAMES[l]}</MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
