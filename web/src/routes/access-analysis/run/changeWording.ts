/** Which conflicts of a run the table lists: all, or those new, resolved or unchanged against the previous run of the same rule set version. */
export type Change = '' | 'new' | 'resolved' | 'unchanged';

/** What an empty list of one kind of change says (a first run has nothing to compare against). */
export function changeEmpty(change: Change, hasPrevious: boolean): { title: string; description: string } {
  const first = 'This is the first completed run of this rule set version: there is no earlier run to compare against.';
  switch (change) {
    case 'new':
      return { title: 'No new conflicts', description: 'Every conflict of this run was already found by the previous run.' };
    case 'resolved':
      return { title: 'No resolved conflicts', description: hasPrevious ? 'Every conflict of the previous run is still found.' : first };
    case 'unchanged':
      return { title: 'No unchanged conflicts', description: hasPrevious ? 'No conflict of this run was found by the previous run.' : first };
    default:
      return { title: 'No conflicts', description: 'This run found no conflicts.' };
  }
}
