import { ShellButton } from '../../engine/common/primitives.tsx';
import { ArrowUpRegular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Scroll distance after which the button appears (spec §9). */
export const SCROLL_BUTTON_THRESHOLD = 300;

/** A button that returns to the top of the page once the user has scrolled down. */
export function ScrollToTop() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_BUTTON_THRESHOLD);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!visible) return null;
  return (
    <ShellButton
      data-action="scroll-top"
      title={t('app.toTop')}
      aria-label={t('app.toTop')}
      round
      appearance="primary"
      style={{ position: 'fixed', right: 16, bottom: 80, zIndex: 900 }}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
    >
      <ArrowUpRegular fontSize={20} />
    </ShellButton>
  );
}
