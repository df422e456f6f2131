/**
 * SPEC §2 (Notification bell): a relative time, under 45 minutes in minutes,
 * then about an hour, hours, days, months and years, as people say it. The
 * wording and its arithmetic are date-fns's `formatDistance(date, now,
 * { addSuffix: true })` in English (the tests compare the two at many offsets),
 * written out here so that the screens do not ship the library.
 */
const MINUTES_IN_DAY = 1440;
const MINUTES_IN_ALMOST_TWO_DAYS = 2520;
const MINUTES_IN_MONTH = 43200;

/** How far the local clock is from UTC at `d`, in ms (date-fns getTimezoneOffsetInMilliseconds). */
function zoneOffsetMs(d: Date): number {
  const utc = new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()));
  utc.setUTCFullYear(d.getFullYear());
  return d.getTime() - utc.getTime();
}

function isLastDayOfMonth(d: Date): boolean {
  return d.getDate() === new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
}

/** Whole calendar months from `earlier` to `later` (later ≥ earlier), as date-fns differenceInMonths counts them. */
function wholeMonths(later: Date, earlier: Date): number {
  const difference = Math.abs((later.getFullYear() - earlier.getFullYear()) * 12 + (later.getMonth() - earlier.getMonth()));
  if (difference < 1) return 0;
  const working = new Date(later.getTime());
  if (working.getMonth() === 1 && working.getDate() > 27) working.setDate(30);
  working.setMonth(working.getMonth() - difference);
  let lastMonthNotFull = working.getTime() < earlier.getTime();
  if (isLastDayOfMonth(later) && difference === 1 && later.getTime() > earlier.getTime()) lastMonthNotFull = false;
  return difference - (lastMonthNotFull ? 1 : 0);
}

const count = (n: number, one: string, many: string) => (n === 1 ? one : many.replace('{n}', String(n)));

function distance(later: Date, earlier: Date): string {
  const seconds = Math.trunc((later.getTime() - earlier.getTime()) / 1000);
  const offsetSeconds = (zoneOffsetMs(later) - zoneOffsetMs(earlier)) / 1000;
  const minutes = Math.round((seconds - offsetSeconds) / 60);
  if (minutes < 2) return minutes === 0 ? 'less than a minute' : count(minutes, '1 minute', '{n} minutes');
  if (minutes < 45) return count(minutes, '1 minute', '{n} minutes');
  if (minutes < 90) return 'about 1 hour';
  if (minutes < MINUTES_IN_DAY) return count(Math.round(minutes / 60), 'about 1 hour', 'about {n} hours');
  if (minutes < MINUTES_IN_ALMOST_TWO_DAYS) return '1 day';
  if (minutes < MINUTES_IN_MONTH) return count(Math.round(minutes / MINUTES_IN_DAY), '1 day', '{n} days');
  if (minutes < MINUTES_IN_MONTH * 2) return count(Math.round(minutes / MINUTES_IN_MONTH), 'about 1 month', 'about {n} months');
  const months = wholeMonths(later, earlier);
  if (months < 12) return count(Math.round(minutes / MINUTES_IN_MONTH), '1 month', '{n} months');
  const years = Math.trunc(months / 12);
  const sinceYear = months % 12;
  if (sinceYear < 3) return count(years, 'about 1 year', 'about {n} years');
  if (sinceYear < 9) return count(years, 'over 1 year', 'over {n} years');
  return count(years + 1, 'almost 1 year', 'almost {n} years');
}

export function relativeTime(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (value == null) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime()) || Number.isNaN(now.getTime())) return '';
  const future = date.getTime() > now.getTime();
  const text = future ? distance(date, now) : distance(now, date);
  return future ? `in ${text}` : `${text} ago`;
}
