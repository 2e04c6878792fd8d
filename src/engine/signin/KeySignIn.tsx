import { Button, Checkbox, Field, Input } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider } from '../../client/react/hooks.ts';
import { Notice } from '../common/primitives.tsx';
import { useLockedAction } from '../common/useLockedAction.ts';
import type { SignInReply } from '../../client/session.ts';
import { FilePicker } from './FilePicker.tsx';
import { refusalText } from './refusal.ts';

/** What the sign-in screen gives each signature method. */
export interface SignatureMethodProps {
  endpoint: string;
  challengeEndpoint: string;
  onSignedIn(reply: SignInReply): void;
  /** "Remember me", shared with the password form. */
  rememberMe: boolean;
  onRememberMe(value: boolean): void;
}

/**
 * Sign-in by key file: the person picks their PKCS#12 file and types its password; the file
 * is opened and the server's one-time challenge signed here in the browser (WebCrypto +
 * pkijs, loaded on first use). Only the signature and the certificate leave the page.
 */
export function KeySignIn({ endpoint, challengeEndpoint, onSignedIn, rememberMe, onRememberMe }: SignatureMethodProps) {
  const { t } = useTranslation();
  const dataProvider = useDataProvider();
  const { reportError } = useApi();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const send = useLockedAction(async () => {
    setProblem(null);
    if (!file) return setProblem(t('auth.fileMissing'));
    const crypto = await import('./keyfile.ts');
    let signedData: string;
    let identity: Record<string, string>;
    try {
      const key = await crypto.openKeyFile(await file.arrayBuffer(), password);
      crypto.assertValid(key);
      identity = key.pinfl ? { PNFL: key.pinfl } : key.tin ? { TIN: key.tin } : {};
      if (!identity.PNFL && !identity.TIN) return setProblem(t('auth.keyErrors.noIdentity'));
      // The challenge is bound to who the certificate says signs it.
      const { challenge } = await dataProvider.getSignInChallenge(challengeEndpoint, identity);
      signedData = await crypto.signChallenge(key, challenge);
    } catch (error) {
      if (error instanceof crypto.KeyFileError) return setProblem(t(`auth.keyErrors.${error.code}`));
      return reportError(error);
    }
    try {
      onSignedIn(await dataProvider.signIn(endpoint, { signedData, ...identity, rememberMe }));
    } catch (error) {
      // A refusal stays on the form; a failure of the system is a notice.
      const text = refusalText(error, t);
      if (text) setProblem(text);
      else reportError(error);
    }
  }, 1000);
  return (
    <form
      data-method="key"
      style={{ display: 'grid', gap: 12 }}
      onSubmit={(e) => {
        e.preventDefault();
        void send.run();
      }}
    >
      <Field label={t('auth.keyFile')} hint={t('auth.keyHint')} required>
        <FilePicker
          field="/keyFile"
          accept=".pfx,.p12,application/x-pkcs12"
          label={t('auth.keyFile')}
          file={file}
          onFile={(f) => {
            setFile(f);
            setProblem(null);
          }}
        />
      </Field>
      <Field label={t('auth.keyPassword')}>
        <Input
          type="password"
          data-field="/keyPassword"
          autoComplete="off"
          value={password}
          onChange={(_, d) => setPassword(d.value)}
        />
      </Field>
      {problem && (
        <Notice intent="error" data-error="key">
          {problem}
        </Notice>
      )}
      <Checkbox
        label={t('auth.rememberMe')}
        data-field="/rememberMe"
        checked={rememberMe}
        onChange={(_, d) => onRememberMe(d.checked === true)}
      />
      <Button appearance="primary" type="submit" data-action="sign-in-key" disabled={send.locked}>
        {t('auth.signInWithKey')}
      </Button>
    </form>
  );
}
