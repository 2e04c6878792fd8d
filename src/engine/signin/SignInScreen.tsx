import { Body1, Button, Divider, makeStyles, mergeClasses, Title2, tokens } from '@fluentui/react-components';
import { Tab, TabList } from '../common/TabList.tsx';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { JSONSchema7 } from 'json-schema';
import type { ScreenProps } from '../types.ts';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider } from '../../client/react/hooks.ts';
import type { SignInMethods } from '../../client/data-provider.ts';
import { Notice } from '../common/primitives.tsx';
import { saveSession, type SignInReply } from '../../client/session.ts';
import { landingAfterSignIn } from '../../client/landing.ts';
import { useLockedAction } from '../common/useLockedAction.ts';
import { EntityForm, type EntityFormHandle } from '../form/EntityForm.tsx';
import { ErrorSummary, focusField } from '../form/ErrorSummary.tsx';
import { refusalText } from './refusal.ts';
import { KeySignIn } from './KeySignIn.tsx';
import { SignatureSignIn } from './SignatureSignIn.tsx';

const useStyles = makeStyles({
  root: {
    maxWidth: '440px',
    margin: '24px auto',
    display: 'grid',
    gap: tokens.spacingVerticalM,
    padding: `0 ${tokens.spacingHorizontalS}`,
  },
  links: { display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  help: { color: tokens.colorNeutralForeground3, display: 'grid', gap: tokens.spacingVerticalXS },
  tabs: { flexWrap: 'wrap', marginLeft: `-${tokens.spacingHorizontalS}` },
  submit: { width: '100%', marginTop: tokens.spacingVerticalM },
  link: {
    color: tokens.colorBrandForegroundLink,
    textDecorationLine: 'none',
    ':hover': { textDecorationLine: 'underline', color: tokens.colorBrandForegroundLinkHover },
  },
  // Inside a sentence a link is told from its text by more than colour (WCAG 1.4.1, axe link-in-text-block).
  inlineLink: { textDecorationLine: 'underline' },
});

/** A link under the form: its label key and a portal path. */
interface SignInLink {
  id: string;
  labelKey: string;
  to: string;
}

/** What a sign-in screen's options say (screens/*.json, kind `signin`). */
interface SignInOptions {
  /** The password form and the endpoint every method posts to. */
  schema: JSONSchema7;
  uiSchema?: Record<string, unknown>;
  endpoint: string;
  /** Which methods this screen offers, in order; the server's `methodsEndpoint` says which are set up. */
  methods?: Array<'password' | 'key' | 'signature' | 'oneId'>;
  methodsEndpoint?: string;
  /** The one-time text a signature signs. */
  challengeEndpoint?: string;
  /** Where OneID sign-in starts (the server redirects to the provider). */
  oneIdLogin?: string;
  links?: SignInLink[];
  /** The call centre: a number to dial and the key of its working hours. */
  callCentre?: { phone: string; hoursKey?: string };
  tutorial?: SignInLink;
}

type Method = 'password' | 'key' | 'signature';

/** Only paths of this portal may be returned to after sign-in (no open redirect). */
const safeRedirect = (value: string | null): string =>
  value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/';

/**
 * Sign-in from a definition: the password form comes from the screen's options, and the
 * other methods the options list (key file, uploaded signature, OneID) appear when the
 * server has them set up. On success the session is stored and the page reloads at the
 * `redirect` query (the permissions and the menu are rebuilt from the new rules).
 */
export default function SignInScreen({ screen }: ScreenProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const dataProvider = useDataProvider();
  const { reportError } = useApi();
  const options = screen.options as unknown as SignInOptions;
  const form = useRef<EntityFormHandle>(null);
  const [data, setData] = useState<Record<string, unknown>>({});
  const [method, setMethod] = useState<Method>('password');
  const [server, setServer] = useState<SignInMethods | null>(null);
  // A refused sign-in stays on the form (not a toast that fades): its text and the attempt, which moves the focus to it.
  const [refusal, setRefusal] = useState<{ text: string; attempt: number } | null>(null);
  const passwordForm = useRef<HTMLDivElement>(null);
  const redirect = safeRedirect(params.get('redirect'));
  const remember = data.rememberMe === true;
  const setRemember = (value: boolean) => setData((d) => ({ ...d, rememberMe: value }));
  const wanted = options.methods ?? ['password'];
  useEffect(() => {
    if (!options.methodsEndpoint) return;
    dataProvider.getSignInMethods(options.methodsEndpoint).then(setServer, () => setServer(null));
  }, [dataProvider, options.methodsEndpoint]);
  // OneID's callback hands the session over in the fragment: store it and go on.
  useEffect(() => {
    const match = /(?:^#|&)session=([A-Za-z0-9_-]+)/.exec(window.location.hash);
    if (!match) return;
    try {
      saveSession(
        JSON.parse(
          new TextDecoder().decode(
            Uint8Array.from(atob(match[1]!.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
          ),
        ) as SignInReply,
      );
      window.location.replace(redirect);
    } catch {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
  }, [redirect]);
  const signedIn = (reply: SignInReply) => {
    saveSession(reply);
    // Back where sign-in was asked for, else the user's own start: staff home or cabinet (landing.ts).
    window.location.assign(landingAfterSignIn(reply, params.get('redirect')));
  };
  const send = useLockedAction(async () => {
    setRefusal(null);
    if (form.current?.validateFields() === false) return;
    try {
      signedIn(await dataProvider.signIn(options.endpoint, data));
    } catch (error) {
      const text = refusalText(error, t);
      if (text) setRefusal((r) => ({ text, attempt: (r?.attempt ?? 0) + 1 }));
      else reportError(error);
    }
  }, 1000);
  const tabs: Method[] = (['password', 'key', 'signature'] as const).filter(
    (m) => wanted.includes(m) && (m === 'password' || (server?.signature && options.challengeEndpoint)),
  );
  const current = tabs.includes(method) ? method : 'password';
  const oneId = wanted.includes('oneId') && server?.oneId && options.oneIdLogin;
  const help = options.callCentre;
  return (
    <div className={s.root} data-screen={screen.id}>
      <Title2 as="h1">{t(screen.titleKey)}</Title2>
      {params.get('error') === 'oneid' && (
        <Notice intent="error" data-error="oneid">
          {t('auth.oneIdFailed')}
        </Notice>
      )}
      {tabs.length > 1 && (
        <TabList
          size="small"
          className={s.tabs}
          selectedValue={current}
          onTabSelect={(_, d) => setMethod(d.value as Method)}
        >
          {tabs.map((m) => (
            <Tab key={m} value={m} data-action={`method-${m}`}>
              {t(`auth.methods.${m}`)}
            </Tab>
          ))}
        </TabList>
      )}
      {current === 'password' && (
        <div ref={passwordForm} data-method="password">
          {refusal && (
            <ErrorSummary
              items={[{ pointer: '/password', text: refusal.text }]}
              attempt={refusal.attempt}
              onFollow={(pointer) => focusField(passwordForm.current, pointer)}
            />
          )}
          {/* The button is the form's own submit button: Enter in a field signs in. */}
          <EntityForm
            ref={form}
            entity={screen.id}
            schema={options.schema}
            uiSchema={options.uiSchema ?? {}}
            formData={data}
            onChange={setData}
            onSubmit={() => void send.run()}
          >
            <Button
              appearance="primary"
              type="submit"
              data-action="sign-in"
              disabled={send.locked}
              className={s.submit}
            >
              {t('auth.signIn')}
            </Button>
          </EntityForm>
        </div>
      )}
      {current === 'key' && (
        <KeySignIn
          endpoint={options.endpoint}
          challengeEndpoint={options.challengeEndpoint!}
          onSignedIn={signedIn}
          rememberMe={remember}
          onRememberMe={setRemember}
        />
      )}
      {current === 'signature' && (
        <SignatureSignIn
          endpoint={options.endpoint}
          challengeEndpoint={options.challengeEndpoint!}
          onSignedIn={signedIn}
          rememberMe={remember}
          onRememberMe={setRemember}
        />
      )}
      {oneId && (
        <>
          <Divider>{t('auth.or')}</Divider>
          <Button
            appearance="outline"
            data-action="sign-in-oneid"
            onClick={() =>
              window.location.assign(
                `${options.oneIdLogin}?redirect=${encodeURIComponent(redirect)}${remember ? '&remember=1' : ''}`,
              )
            }
          >
            {t('auth.methods.oneId')}
          </Button>
        </>
      )}
      {options.links?.length ? (
        <nav className={s.links} aria-label={t(screen.titleKey)}>
          {options.links.map((l) => (
            <Link key={l.id} className={s.link} to={l.to} data-link={l.id}>
              {t(l.labelKey)}
            </Link>
          ))}
        </nav>
      ) : null}
      {(help || options.tutorial) && (
        <div className={s.help}>
          {help && (
            <Body1 data-help="call-centre">
              {t('auth.callCentre')}:{' '}
              <a className={mergeClasses(s.link, s.inlineLink)} href={`tel:${help.phone.replace(/[^\d+]/g, '')}`}>
                {help.phone}
              </a>
              {help.hoursKey ? ` (${t(help.hoursKey)})` : ''}
            </Body1>
          )}
          {options.tutorial && (
            <Link className={s.link} to={options.tutorial.to} data-link={options.tutorial.id}>
              {t(options.tutorial.labelKey)}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}
