// The rules of a recurring period's schedule and name, without the database:
// which occurrences a schedule has (UTC, minute precision) and what a name
// pattern becomes for a period starting on a given date. Monthly, quarterly
// and yearly are the first of the month (of January, April, July, October;
// of January) at 00:00 UTC; a cron expression (five fields) says anything else.
// A schedule that has no occurrence within five years never fires and is
// refused, as is a pattern naming a token it does not know.
import cronParser from 'cron-parser';
import { ValidationError } from '../../core/errors.js';

export const SCHEDULES = ['monthly', 'quarterly', 'yearly', 'cron'] as const;
export type Schedule = (typeof SCHEDULES)[number];

const FIXED_CRON: Record<Exclude<Schedule, 'cron'>, string> = {
  monthly: '0 0 1 * *',
  quarterly: '0 0 1 1,4,7,10 *',
  yearly: '0 0 1 1 *',
};

/** How far ahead a schedule must have an occurrence: beyond it, it is taken to never fire. */
export const HORIZON_YEARS = 5;

function cronOf(schedule: Schedule, cron: string | null | undefined): string {
  return schedule === 'cron' ? (cron ?? '') : FIXED_CRON[schedule];
}

/**
 * Refuses a cron expression that is not five fields cron-parser understands
 * (minute hour day-of-month month day-of-week; no seconds), naming it.
 */
export function checkCron(cron: string): void {
  const fields = cron.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5) {
    throw new ValidationError(`The cron expression '${cron}' is not valid: it needs 5 fields (minute hour day-of-month month day-of-week)`, 'cron');
  }
  try {
    cronParser.parseExpression(cron, { tz: 'UTC' });
  } catch (err) {
    throw refusal(cron, err as Error);
  }
}

/** cron-parser's refusal of an impossible explicit date (30 February) means the expression never fires. */
function refusal(cron: string, err: Error): ValidationError {
  if (/timespan|explicit day/i.test(err.message)) return neverFires(cron);
  return new ValidationError(`The cron expression '${cron}' is not valid: ${err.message}`, 'cron');
}

const neverFires = (cron: string) =>
  new ValidationError(`The cron expression '${cron}' never fires: it has no occurrence within the next ${HORIZON_YEARS} years`, 'cron');

/**
 * The first occurrence of the schedule after `after`; refused (naming the
 * expression) when there is none within HORIZON_YEARS, e.g. 30 February.
 */
export function nextOccurrence(schedule: Schedule, cron: string | null | undefined, after: Date): Date {
  const expr = cronOf(schedule, cron);
  if (schedule === 'cron') checkCron(expr);
  const endDate = new Date(after);
  endDate.setUTCFullYear(endDate.getUTCFullYear() + HORIZON_YEARS);
  try {
    const it = cronParser.parseExpression(expr, { currentDate: after, endDate, tz: 'UTC' });
    if (!it.hasNext()) throw neverFires(expr);
    return it.next().toDate();
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw refusal(expr, err as Error);
  }
}

/** The last occurrence at or before `at` that is not before `from`: the one a late run is for. */
export function latestDue(schedule: Schedule, cron: string | null | undefined, from: Date, at: Date): Date {
  let due = from;
  for (;;) {
    const next = nextOccurrence(schedule, cron, due);
    if (next > at) return due;
    due = next;
  }
}

export const NAME_TOKENS = ['year', 'quarter', 'month', 'monthName'] as const;
export const MAX_PATTERN_LENGTH = 150;
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Refuses an empty or over-long pattern and any {token} it does not know, naming them. */
export function checkNamePattern(pattern: string): void {
  if (!pattern.trim()) throw new ValidationError('Name pattern is required', 'namePattern');
  if (pattern.length > MAX_PATTERN_LENGTH) throw new ValidationError(`Name pattern is too long (at most ${MAX_PATTERN_LENGTH} characters)`, 'namePattern');
  const unknown = [...pattern.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!).filter((t) => !(NAME_TOKENS as readonly string[]).includes(t));
  if (unknown.length) {
    const list = [...new Set(unknown)].map((t) => `{${t}}`).join(', ');
    throw new ValidationError(
      `Name pattern has unknown ${unknown.length === 1 ? 'token' : 'tokens'} ${list}; known: {year}, {quarter}, {month}, {monthName}`,
      'namePattern',
    );
  }
}

/** The pattern filled in for a period starting at `start` (UTC): e.g. 'Q{quarter} {year} SoD review' → 'Q2 2027 SoD review'. */
export function periodName(pattern: string, start: Date): string {
  const month = start.getUTCMonth();
  const values: Record<(typeof NAME_TOKENS)[number], string> = {
    year: String(start.getUTCFullYear()),
    quarter: String(Math.floor(month / 3) + 1),
    month: String(month + 1).padStart(2, '0'),
    monthName: MONTH_NAMES[month]!,
  };
  return pattern.replace(/\{(year|quarter|month|monthName)\}/g, (_m, t: keyof typeof values) => values[t]).trim();
}
