/** sessionStorage key marking that this browser session's visit was counted. */
const COUNTED_KEY = 'portal.visitCounted';

/**
 * Counts this visit once per browser session (spec §7: visit/add on start), without
 * delaying anything: a failure is ignored — the visitor page is statistics, not a service —
 * and the mark is set only after the server took it, so a failed count is retried on the
 * next page load of the same session.
 */
export function countVisitOnce(
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  send: typeof fetch = fetch,
): void {
  try {
    if (storage.getItem(COUNTED_KEY)) return;
  } catch {
    return; // storage blocked (privacy mode): do not count on every load instead
  }
  void send('/api/visit/add', { method: 'POST' })
    .then(async (res) => {
      // Read to the end: the browser keeps the body of a no-store reply nobody reads open, and
      // tools that wait for a quiet network (Lighthouse) wait for it.
      await res.arrayBuffer();
      if (res.ok) storage.setItem(COUNTED_KEY, '1');
    })
    .catch(() => undefined);
}
