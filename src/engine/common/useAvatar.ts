import { useEffect, useState } from 'react';
import { getSetting } from '../../client/settings.ts';
import { SESSION_EVENT } from '../../client/session.ts';

/**
 * The session avatar as an object URL. The file is served only with the bearer token (it
 * is the user's own photo, not public), which an <img src> cannot send: it is fetched, and
 * fetched again when the session's avatar changes (SESSION_EVENT).
 */
export function useAvatar(): string | undefined {
  const [path, setPath] = useState(() => getSetting('avatarUrl'));
  const [src, setSrc] = useState<string | undefined>(undefined);
  useEffect(() => {
    const update = () => setPath(getSetting('avatarUrl'));
    window.addEventListener(SESSION_EVENT, update);
    return () => window.removeEventListener(SESSION_EVENT, update);
  }, []);
  useEffect(() => {
    const token = getSetting('accessToken');
    if (!path || !token) {
      setSrc(undefined);
      return;
    }
    let url: string | undefined;
    let cancelled = false;
    void fetch(path, { headers: { authorization: `Bearer ${token}` } })
      .then((res) => (res.ok ? res.blob() : undefined))
      .then((blob) => {
        if (!blob || cancelled) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return src;
}
