import { Button, Checkbox, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../client/react/context.tsx';
import { useDataProvider } from '../../client/react/hooks.ts';
import type { SignInChallenge } from '../../client/data-provider.ts';
import { Notice } from '../common/primitives.tsx';
import { useLockedAction } from '../common/useLockedAction.ts';
import { FilePicker } from './FilePicker.tsx';
import { refusalText } from './refusal.ts';
import type { SignatureMethodProps } from './KeySignIn.tsx';

const useStyles = makeStyles({
  challenge: {
    display: 'block',
    padding: tokens.spacingHorizontalS,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase300,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
    userSelect: 'all',
  },
  download: { color: tokens.colorBrandForegroundLink, fontSize: tokens.fontSizeBase200 },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
});

type Props = SignatureMethodProps;

/**
 * A CMS signature file as the server wants it: base64 of the DER. Accepts DER bytes, a PEM
 * file (`-----BEGIN CMS-----`, `PKCS7`, …) or bare base64 text.
 */
export function signatureFileToBase64(bytes: Uint8Array): string | undefined {
  const text = new TextDecoder('latin1').decode(bytes);
  const armoured = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/.exec(text);
  const candidate = (armoured ? armoured[1]! : text).replace(/\s+/g, '');
  if (/^[A-Za-z0-9+/=_-]+$/.test(candidate) && candidate.length >= 16) return candidate;
  // Binary DER: a SEQUENCE.
  if (bytes[0] !== 0x30) return undefined;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Sign-in by a digital signature made elsewhere (a signing program, a token's tool, openssl):
 * the screen shows the one-time text to sign, the person uploads the signature file —
 * detached or with the text inside — and says whose it is (PINFL or TIN).
 */
export function SignatureSignIn({ endpoint, challengeEndpoint, onSignedIn, rememberMe, onRememberMe }: Props) {
  const s = useStyles();
  const { t } = useTranslation();
  const dataProvider = useDataProvider();
  const { reportError } = useApi();
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [identity, setIdentity] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fetchChallenge = useCallback(() => {
    dataProvider.getSignInChallenge(challengeEndpoint).then(setChallenge, reportError);
  }, [dataProvider, challengeEndpoint, reportError]);
  useEffect(fetchChallenge, [fetchChallenge]);
  const send = useLockedAction(async () => {
    setProblem(null);
    const id = identity.trim();
    if (!/^(\d{14}|\d{9})$/.test(id)) return setProblem(t('auth.signature.identityInvalid'));
    if (!file) return setProblem(t('auth.fileMissing'));
    const signedData = signatureFileToBase64(new Uint8Array(await file.arrayBuffer()));
    if (!signedData) return setProblem(t('auth.signature.fileInvalid'));
    if (!challenge) return;
    try {
      onSignedIn(
        await dataProvider.signIn(endpoint, {
          signedData,
          challenge: challenge.challenge,
          rememberMe,
          ...(id.length === 14 ? { PNFL: id } : { TIN: id }),
        }),
      );
    } catch (error) {
      // A refusal stays on the form; a failure of the system is a notice.
      const text = refusalText(error, t);
      if (text) setProblem(text);
      else reportError(error);
      // A challenge is used up by any attempt that reached it: offer a fresh one.
      fetchChallenge();
    }
  }, 1000);
  const expires = challenge ? new Date(challenge.expiresAt) : undefined;
  const until = expires
    ? `${String(expires.getHours()).padStart(2, '0')}:${String(expires.getMinutes()).padStart(2, '0')}`
    : '';
  return (
    <form
      data-method="signature"
      style={{ display: 'grid', gap: 12 }}
      onSubmit={(e) => {
        e.preventDefault();
        void send.run();
      }}
    >
      <Field
        label={t('auth.signature.challenge')}
        hint={challenge ? t('auth.signature.challengeHint', { time: until }) : undefined}
      >
        <code className={s.challenge} data-challenge={challenge?.challenge ?? ''}>
          {challenge?.challenge ?? '…'}
        </code>
      </Field>
      <div className={s.row}>
        <Button
          size="small"
          data-action="copy-challenge"
          disabled={!challenge}
          onClick={() => void navigator.clipboard?.writeText(challenge?.challenge ?? '')}
        >
          {t('auth.signature.copy')}
        </Button>
        <Button size="small" data-action="new-challenge" onClick={fetchChallenge}>
          {t('auth.signature.newChallenge')}
        </Button>
        {challenge && (
          // As a file, for signing programs that sign files (no newline added: the exact bytes).
          <a
            className={s.download}
            data-action="download-challenge"
            download="challenge.txt"
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(challenge.challenge)}`}
          >
            {t('auth.signature.download')}
          </a>
        )}
      </div>
      <Field label={t('auth.signature.identity')} required>
        <Input
          data-field="/identity"
          inputMode="numeric"
          maxLength={14}
          value={identity}
          onChange={(_, d) => setIdentity(d.value)}
        />
      </Field>
      <Field label={t('auth.signature.file')} required>
        <FilePicker
          field="/signatureFile"
          accept=".p7s,.p7b,.p7m,.pem,.sig,.txt,application/pkcs7-signature"
          label={t('auth.signature.file')}
          file={file}
          onFile={(f) => {
            setFile(f);
            setProblem(null);
          }}
        />
      </Field>
      {problem && (
        <Notice intent="error" data-error="signature">
          {problem}
        </Notice>
      )}
      <Checkbox
        label={t('auth.rememberMe')}
        data-field="/rememberMe"
        checked={rememberMe}
        onChange={(_, d) => onRememberMe(d.checked === true)}
      />
      <Button appearance="primary" type="submit" data-action="sign-in-signature" disabled={send.locked || !challenge}>
        {t('auth.signature.submit')}
      </Button>
    </form>
  );
}
