import { Button, makeStyles, Title2, tokens, Body1 } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { JSONSchema7 } from 'json-schema';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../app/api/context.tsx';
import { saveSession, type SignInReply } from '../../app/session.ts';
import { useLockedAction } from '../common/useLockedAction.ts';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';

const useStyles = makeStyles({
  root: { maxWidth: '420px', margin: '24px auto', display: 'grid', gap: tokens.spacingVerticalM },
  help: { color: tokens.colorNeutralForeground3 },
});

/** What a sign-in screen's options say: its form and the endpoint it posts to. */
interface SignInOptions {
  schema: JSONSchema7;
  uiSchema?: Record<string, unknown>;
  endpoint: string;
  helpKey?: string;
}

/** Only paths of this portal may be returned to after sign-in (no open redirect). */
const safeRedirect = (value: string | null): string => (value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/');

/**
 * Sign-in from a definition: the form comes from the screen's options; on success the
 * session is stored and the page reloads at the `redirect` query (the permissions and the
 * menu are rebuilt from the new rules).
 */
export default function SignInScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { dataProvider, reportError } = useApi();
  const options = screen.options as unknown as SignInOptions;
  const form = useRef<EntityFormHandle>(null);
  const [data, setData] = useState<Record<string, unknown>>({});
  // OneID's callback hands the session over in the fragment: store it and go on.
  useEffect(() => {
    const match = /(?:^#|&)session=([A-Za-z0-9_-]+)/.exec(window.location.hash);
    if (!match) return;
    try {
      saveSession(JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(match[1]!.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)))) as SignInReply);
      window.location.replace(safeRedirect(params.get('redirect')));
    } catch {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
  }, [params]);
  const send = useLockedAction(async () => {
    if (form.current?.validateFields() === false) return;
    try {
      const reply = await dataProvider.call<SignInReply>('POST', options.endpoint, data);
      saveSession(reply);
      window.location.assign(safeRedirect(params.get('redirect')));
    } catch (error) {
      reportError(error);
    }
  }, 1000);
  return (
    <div className={s.root} data-screen={screen.id}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      <EntityForm ref={form} entity={screen.id} schema={options.schema} uiSchema={options.uiSchema ?? {}} formData={data} onChange={setData} onSubmit={() => void send.run()} />
      <Button appearance="primary" data-action="sign-in" disabled={send.locked} onClick={() => void send.run()}>{t('auth.signIn')}</Button>
      {options.helpKey && <Body1 className={s.help}>{t(options.helpKey)}</Body1>}
    </div>
  );
}
