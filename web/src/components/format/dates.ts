// The one rule for writing dates and times on every screen: en-US short month,
// day and year ('Dec 1, 2026'), with the time as 'Dec 1, 2026, 3:05 PM', in
// the browser's time zone, whatever its language (a screen never mixes
// '06.12.2026' with 'Dec 1, 2026').
//
// The first Intl formatter of a page loads the locale's data: 21 ms of main-thread time
// unthrottled, ~80 ms on a phone (the risk queue's rows show a date, as the dashboard's
// period card does). A date is written out here instead; the date and time, shown on fewer
// screens, keeps its formatter, made on first use.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
let dateTimeFormat: Intl.DateTimeFormat | undefined;

function parsed(value: string | Date | null | undefined): Date | null {
  if (value == null || value === '') return null;
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? null : d;
}

/** 'Nov 25, 2026' (Intl en-US: year numeric, month short, day numeric), local time; '—' when unknown. */
export function formatDate(value: string | Date | null | undefined): string {
  const d = parsed(value);
  return d ? `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}` : '—';
}

/** 'Nov 25, 2026, 3:05 PM', local time; '—' when unknown. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const d = parsed(value);
  if (!d) return '—';
  dateTimeFormat ??= new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  return dateTimeFormat.format(d);
}

/** formatDate, '' when unknown (for titles and captions that are left out). */
export function shortDate(value: string | Date | null | undefined): string {
  return parsed(value) ? formatDate(value) : '';
}

/** formatDateTime, '' when unknown (for titles and tooltips). */
export function fullDateTime(value: string | Date | null | undefined): string {
  return parsed(value) ? formatDateTime(value) : '';
}
