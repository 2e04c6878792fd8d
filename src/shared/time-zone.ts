/**
 * The Committee's time zone: business days, deadlines and shown times are Tashkent's
 * (UTC+5, no daylight saving since 1992). The one home of this fact — formatting, the
 * business calendar, and every SQL that asks "which day is it" interpolate these.
 */

/** The IANA zone business dates and times are meant in (`Intl`, SQL `AT TIME ZONE`). */
export const BUSINESS_TIME_ZONE = 'Asia/Tashkent';

/** The zone's fixed offset from UTC in minutes (UTC+5, no DST), for arithmetic without `Intl`. */
export const BUSINESS_UTC_OFFSET_MINUTES = 300;
