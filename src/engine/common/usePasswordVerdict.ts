import { useEffect, useMemo, useState } from 'react';
import {
  evaluatePassword,
  type PasswordEstimator,
  type PasswordIdentity,
  type PasswordVerdict,
} from '../../shared/password-policy.ts';

/** How long typing rests before the verdict (and what a screen reader hears) changes. */
const VERDICT_DELAY_MS = 250;

let loading: Promise<PasswordEstimator> | undefined;

/**
 * zxcvbn with its dictionaries, loaded once and only when asked: the common-password list is
 * large, and only screens where a new password is typed need it (the public pages' first
 * visit stays as small as it was). A failed load may be tried again later.
 */
export function loadPasswordEstimator(): Promise<PasswordEstimator> {
  loading ??= import('../../shared/password-estimator.ts')
    .then((m) => m.createPasswordEstimator())
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/** The verdict of the policy on a password being typed, and whether zxcvbn could not load. */
export interface PasswordVerdictState {
  verdict: PasswordVerdict | undefined;
  /** The estimator failed to load: only the length and identifier rules were applied. */
  unavailable: boolean;
}

/**
 * The password policy's verdict (src/shared/password-policy.ts) on `password` for this
 * person, as the server will give it: the length and identifier rules at once, zxcvbn's
 * score once its dictionaries have loaded (started by the first render). Undefined while the
 * field is empty; updated once typing rests.
 * @example const { verdict } = usePasswordVerdict(value, { username: 'aziz' });
 */
export function usePasswordVerdict(password: string, identity: PasswordIdentity): PasswordVerdictState {
  const [estimator, setEstimator] = useState<PasswordEstimator | undefined>(undefined);
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    let live = true;
    loadPasswordEstimator().then(
      (loaded) => live && setEstimator(() => loaded),
      () => live && setUnavailable(true),
    );
    return () => {
      live = false;
    };
  }, []);
  // A new identity object each render must not restart the delay: compare by content.
  const identityKey = JSON.stringify(identity);
  const stableIdentity = useMemo(() => JSON.parse(identityKey) as PasswordIdentity, [identityKey]);
  const [verdict, setVerdict] = useState<PasswordVerdict | undefined>(undefined);
  useEffect(() => {
    if (!password) {
      setVerdict(undefined);
      return undefined;
    }
    const timer = window.setTimeout(
      () => setVerdict(evaluatePassword(password, stableIdentity, estimator)),
      VERDICT_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [password, stableIdentity, estimator]);
  return { verdict, unavailable };
}
