/**
 * SPEC §2 (Notification bell): a relative time, under 45 minutes in minutes,
 * then about an hour, hours, days, months and years, as people say it.
 */
export function relativeTime(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (value == null) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  const ms = now.getTime() - date.getTime();
  if (Number.isNaN(ms)) return '';
  const future = ms < 0;
  const seconds = Math.abs(ms) / 1000;
  const minutes = Math.round(seconds / 60);
  const hours = Math.round(minutes / 60);
  const days = Math.round(hours / 24);
  const months = Math.floor(days / 30);

  let text: string;
  if (seconds < 30) text = 'less than a minute';
  else if (minutes < 45) text = minutes <= 1 ? '1 minute' : `${minutes} minutes`;
  else if (minutes < 90) text = 'about 1 hour';
  else if (minutes < 1440) text = `about ${hours} hours`;
  else if (minutes < 2520) text = '1 day';
  else if (minutes < 43200) text = `${days} days`;
  else if (minutes < 86400) text = 'about 1 month';
  else if (days < 365) text = `${Math.max(2, months)} months`;
  else {
    const years = Math.floor(days / 365);
    const rest = days - years * 365;
    if (rest < 91) text = `about ${years} ${years === 1 ? 'year' : 'years'}`;
    else if (rest < 273) text = `over ${years} ${years === 1 ? 'year' : 'years'}`;
    else text = `almost ${years + 1} years`;
  }
  return future ? `in ${text}` : `${text} ago`;
}

/** A full local date and time, for titles and tooltips. */
export function fullDateTime(value: string | Date | null | undefined): string {
  if (value == null) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A local date, e.g. 'Mar 4, 2025'. */
export function shortDate(value: string | Date | null | undefined): string {
  if (value == null) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}
