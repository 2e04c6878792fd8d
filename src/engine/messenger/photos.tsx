import { useEffect, useState } from 'react';
import { Avatar } from '@fluentui/react-components';
import { getSetting } from '../../client/settings.ts';

/**
 * Photos of colleagues and groups (`GET /api/employee/photo/{userId}`,
 * `/api/groupChat/photo/{id}`) are served only with the bearer token, which an <img src>
 * cannot send: each is fetched once per page life and shown from an object URL. Lists show
 * the same person many times (contacts, chats, the forward dialog), so the fetches are shared.
 */
const cache = new Map<string, Promise<string | undefined>>();

function load(path: string): Promise<string | undefined> {
  let hit = cache.get(path);
  if (!hit) {
    hit = fetch(path, { headers: { authorization: `Bearer ${getSetting('accessToken') ?? ''}` } })
      .then(async (res) => (res.ok ? URL.createObjectURL(await res.blob()) : undefined))
      .catch(() => undefined);
    cache.set(path, hit);
  }
  return hit;
}

/** Drops a cached photo (after a new one was uploaded under the same path). */
export function forgetPhoto(path: string): void {
  void cache.get(path)?.then((url) => url && URL.revokeObjectURL(url));
  cache.delete(path);
}

/** The object URL of a protected photo, undefined while loading or when there is none. */
export function usePhoto(path: string | null | undefined, version = 0): string | undefined {
  const [src, setSrc] = useState<string | undefined>(undefined);
  useEffect(() => {
    setSrc(undefined);
    if (!path) return;
    let live = true;
    void load(path).then((url) => {
      if (live) setSrc(url);
    });
    return () => {
      live = false;
    };
  }, [path, version]);
  return src;
}

/** A person's or a group's avatar: the photo when there is one, else the initials of the name. */
export function PhotoAvatar({
  name,
  photo,
  size = 32,
}: {
  name: string;
  photo: string | null | undefined;
  size?: 28 | 32 | 36;
}) {
  const src = usePhoto(photo);
  return (
    <Avatar
      name={name}
      size={size}
      image={src ? { src, alt: '' } : undefined}
      data-photo={src ? 'image' : 'initials'}
    />
  );
}
