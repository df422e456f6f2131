// What the Approve / Return dialog says about the items it lists: a larger
// submission lists its first items only (attention first), and says so, so
// that the numbers on screen add up for a reader. (No imports: the API tests
// check this wording too. The dialog opens on demand, so Intl's first-use cost
// is not on a first load.)

const formatCount = (n: number) => n.toLocaleString('en-US');

/** The heading above the listed items: how many are listed of how many. */
export function listedItemsHeading(total: number, listed: number): string {
  if (listed >= total) return `All ${formatCount(total)} ${total === 1 ? 'item' : 'items'}, those needing attention first`;
  return `The first ${formatCount(listed)} of ${formatCount(total)} items, those needing attention first`;
}

/** The line under the list when not every item is listed; null when all are. */
export function unlistedItemsNote(total: number, listed: number): string | null {
  if (listed >= total) return null;
  const rest = total - listed;
  return `${formatCount(rest)} more ${rest === 1 ? 'item is' : 'items are'} not listed here; the decision applies to all ${formatCount(total)}.`;
}
