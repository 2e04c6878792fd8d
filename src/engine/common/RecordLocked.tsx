import {
  Body1,
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Title2,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ScreenDefinition } from '../../generated/meta.ts';
import { useAbility } from '../../client/react/ability.tsx';
import { entityScreenPath } from './routes.ts';

/**
 * What an edit screen shows instead of its form when the record is closed to the user in its
 * status (its edit rules let them change nothing now): a plain notice and the way to the
 * record's page, where its next steps are.
 * @example if (editor.locked) return <RecordLocked screen={screen} recordId={editor.recordId!} />;
 */
export function RecordLocked({ screen, recordId }: { screen: ScreenDefinition; recordId: number }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const navigate = useNavigate();
  const detail = entityScreenPath(screen.entity!, ['detail'], recordId, ability, screen.route);
  return (
    <div data-screen={screen.id} data-entity={screen.entity}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <MessageBar intent="warning" layout="multiline" data-region="locked">
        <MessageBarBody>
          <MessageBarTitle>{t('engine.form.lockedTitle')}</MessageBarTitle>
          <Body1 as="p">{t('engine.form.lockedText')}</Body1>
        </MessageBarBody>
        {detail && (
          <MessageBarActions>
            <Button
              as="a"
              href={detail}
              data-action="open-record"
              onClick={(e) => {
                e.preventDefault();
                navigate(detail);
              }}
            >
              {t('engine.form.openRecord')}
            </Button>
          </MessageBarActions>
        )}
      </MessageBar>
    </div>
  );
}
