import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from './types.ts';

/** Shown for a screen kind the engine does not know (a definition ahead of the engine). */
export default function UnknownScreen({ screen }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <div data-screen={screen.id}>
      <MessageBar intent="warning">
        <MessageBarBody>{t('app.unknownScreen', { kind: screen.kind })}</MessageBarBody>
      </MessageBar>
    </div>
  );
}
