import { useTranslation } from 'react-i18next';
import type { ScreenProps } from './types.ts';
import { Notice } from './common/primitives.tsx';

/** Shown for a screen kind the engine does not know (a definition ahead of the engine). */
export default function UnknownScreen({ screen }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <div data-screen={screen.id}>
      <Notice intent="warning">{t('app.unknownScreen', { kind: screen.kind })}</Notice>
    </div>
  );
}
