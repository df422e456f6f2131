// The web client's wording rules that are plain functions: relative times
// (SPEC §2, the notification bell and lists) against date-fns, the wording
// they copy, as an oracle; the Approve dialog's count of listed items.
import { formatDistance } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../../web/src/components/format/relativeTime.js';
import { listedItemsHeading, unlistedItemsNote } from '../../../web/src/routes/risk-review/approvalWording.js';

const MINUTE = 60_000;

describe('relative times', () => {
  it('say what date-fns formatDistance says, past and future, at every sampled offset', () => {
    const nows = [new Date('2026-12-07T10:15:00Z'), new Date('2026-03-31T23:59:30Z'), new Date('2028-02-29T12:00:00Z'), new Date('2026-10-25T01:30:00Z')];
    // Every second of the first 3 minutes, every minute to 3 days, every hour to 400 days, every day to 12 years.
    const offsets: number[] = [];
    for (let s = 0; s < 180; s++) offsets.push(s * 1000);
    for (let m = 3; m < 3 * 1440; m++) offsets.push(m * MINUTE);
    for (let h = 72; h < 400 * 24; h++) offsets.push(h * 60 * MINUTE);
    for (let d = 400; d < 12 * 366; d++) offsets.push(d * 1440 * MINUTE);
    const wrong: string[] = [];
    let compared = 0;
    for (const now of nows) {
      for (const offset of offsets) {
        for (const date of [new Date(now.getTime() - offset), new Date(now.getTime() + offset + 1000)]) {
          compared++;
          const want = formatDistance(date, now, { addSuffix: true });
          const got = relativeTime(date, now);
          if (got !== want && wrong.length < 10) wrong.push(`${date.toISOString()} from ${now.toISOString()}: ${got} (date-fns: ${want})`);
        }
      }
    }
    expect(compared).toBeGreaterThan(100_000);
    expect(wrong).toEqual([]);
  });

  it('reads 45 days ago as about 2 months ago', () => {
    // Both days in the same daylight-saving state wherever the test runs (a change of the clock moves the arithmetic by its hour).
    const now = new Date('2026-08-20T10:00:00Z');
    expect(relativeTime(new Date(now.getTime() - 45 * 1440 * MINUTE), now)).toBe('about 2 months ago');
  });
});

describe("the Approve dialog's list of items", () => {
  it('says it lists the first ones of a larger submission, and how many it leaves out', () => {
    expect(listedItemsHeading(152, 100)).toBe('The first 100 of 152 items, those needing attention first');
    expect(unlistedItemsNote(152, 100)).toBe('52 more items are not listed here; the decision applies to all 152.');
    expect(listedItemsHeading(6, 6)).toBe('All 6 items, those needing attention first');
    expect(unlistedItemsNote(6, 6)).toBeNull();
  });
});
