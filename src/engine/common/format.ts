/** Dates and times as the committee writes them (DD.MM.YYYY, hh:mm), in Tashkent time. */
const TIME_ZONE = 'Asia/Tashkent';

const parts = (iso: string, withTime: boolean): Record<string, string> | undefined => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric', ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
  });
  return Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
};

/** `2024-05-01` → `01.05.2024` (a plain date has no time zone). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) return `${m[3]}.${m[2]}.${m[1]}`;
  const p = parts(value, false);
  return p ? `${p.day}.${p.month}.${p.year}` : value;
}

/** An ISO instant → `DD.MM.YYYY hh:mm` in Tashkent. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const p = parts(value, true);
  return p ? `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}` : value;
}

/** UZS without decimals, thousands grouped by spaces: 1234567.8 → `1 234 568`. */
export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
}
