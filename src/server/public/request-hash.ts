import { createHash } from 'node:crypto';
import { ApiError } from '../errors.ts';

/**
 * The fingerprint an `Idempotency-Key` is stored with, so that a repeat can be told from a
 * different request sent under the same key: a repeat (a double click, a retry after a lost
 * answer) answers the first reply; anything else is refused with 422 instead of being answered
 * as if it had been stored.
 */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * JSON text with the keys of every object sorted: equal JSON values give one text.
 * @example canonicalJson({ b: 1, a: { d: 2, c: 3 } }) // '{"a":{"c":3,"d":2},"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

/**
 * The SHA-256 (hex) of a request's content as canonical JSON — for a multipart request its
 * fields and its files' SHA-256s, for a JSON request its body.
 * @example requestHash({ data: { a: 1 }, files: ['9f86d0…'] })
 */
export function requestHash(content: unknown): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/**
 * Refuses (422, localized) a request whose key was first used with other content. A key
 * stored before fingerprints were kept (`stored` null) matches any content.
 */
export function mustBeSameRequest(stored: string | null | undefined, hash: string): void {
  if (stored && stored !== hash) throw new ApiError(422, 'errors.idempotencyKeyReused');
}
