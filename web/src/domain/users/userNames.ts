// How people are named on screen (the sidebar, the user list, notifications).
// The name itself is the server's `User.displayName` (one rule for the screens
// and the exported files: api/src/core/people.ts).

/** The name to show for a user: their display name, 'User' when they have none (SPEC §2, the sidebar's fallback). */
export function shownName(displayName: string | null | undefined): string {
  return displayName?.trim() || 'User';
}

export function initials(firstName: string | null | undefined, lastName: string | null | undefined, email?: string): string {
  const letters = `${firstName?.trim().charAt(0) ?? ''}${lastName?.trim().charAt(0) ?? ''}`;
  return (letters || email?.charAt(0) || 'U').toUpperCase();
}

export function roleLabel(role: string): string {
  return role === 'ADMIN' ? 'Administrator' : 'Reviewer';
}
