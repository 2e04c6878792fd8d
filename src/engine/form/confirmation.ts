/**
 * The confirmation page of a public submission (GOV.UK "confirmation page"): its texts and
 * numbers come from the screen's `options.submit.confirmation`; this module holds the pure
 * parts — the answer's due date and the link that pre-fills the tracking lookup.
 */
import { BUSINESS_UTC_OFFSET_MINUTES } from '../../shared/time-zone.ts';
import { valueAt } from '../../shared/pointer.ts';

/** What a screen declares about its confirmation page (screen.schema.json, options.submit.confirmation). */
export interface ConfirmationOptions {
  /** Paragraphs under "What happens next"; they may use {{days}}, {{date}} and {{reference}}. */
  nextKeys?: string[];
  /** The review period the texts promise, from the submit day. */
  days?: number;
  /** `calendar` (default) counts every day; `working` skips Saturdays and Sundays. */
  dayKind?: 'calendar' | 'working';
  /** The tracking lookup screen, its tab, and which lookup parameter takes which field of the submitted data. */
  track?: { screen: string; tab?: string; referenceParam?: string; contact?: Record<string, string> };
}

const DAY_MS = 86_400_000;

/**
 * The day `days` days after the submit moment's day in Tashkent (YYYY-MM-DD); `working`
 * days skip Saturdays and Sundays (public holidays are not known to the portal).
 * @example dueDate('2026-11-26T10:00:00Z', 15) // '2026-12-11'
 * @example dueDate('2026-11-27T10:00:00Z', 1, 'working') // '2026-11-30' (Friday → Monday)
 */
export function dueDate(sentAt: string, days: number, kind: 'calendar' | 'working' = 'calendar'): string {
  const local = new Date(new Date(sentAt).getTime() + BUSINESS_UTC_OFFSET_MINUTES * 60_000);
  let day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  if (kind === 'calendar') day += days * DAY_MS;
  else
    for (let left = days; left > 0; ) {
      day += DAY_MS;
      const weekday = new Date(day).getUTCDay();
      if (weekday !== 0 && weekday !== 6) left--;
    }
  return new Date(day).toISOString().slice(0, 10);
}

/** The lookup parameters that find this submission again: its reference and the contact it was filed with. */
export function trackParams(
  track: NonNullable<ConfirmationOptions['track']>,
  reference: string,
  data: Record<string, unknown>,
): Record<string, string> {
  const params: Record<string, string> = {};
  if (track.tab) params.tab = track.tab;
  params[track.referenceParam ?? 'reference'] = reference;
  for (const [param, pointer] of Object.entries(track.contact ?? {})) {
    const value = valueAt(data, pointer);
    if (typeof value === 'string' && value) params[param] = value;
  }
  return params;
}

/** Kept per tab (sessionStorage): a reload of the confirmation page still pre-fills the tracking link. */
const storageKey = (reference: string) => `submitted:${reference}`;

/** Remembers the tracking parameters of a submission for this browser tab. */
export function rememberTrack(reference: string, params: Record<string, string>): void {
  try {
    sessionStorage.setItem(storageKey(reference), JSON.stringify(params));
  } catch {
    // Storage may be off (private mode): the link then pre-fills the reference only.
  }
}

/** The remembered tracking parameters of a submission, if this tab filed it. */
export function recallTrack(reference: string): Record<string, string> | undefined {
  try {
    const raw = sessionStorage.getItem(storageKey(reference));
    return raw ? (JSON.parse(raw) as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
}
