// How people are named on screen (the sidebar, the user list, notifications).

/** A user's first and last name, 'User' when neither is known. */
export function fullName(firstName: string | null | undefined, lastName: string | null | undefined): string {
  return [firstName, lastName].filter(Boolean).join(' ').trim() || 'User';
}

export function initials(firstName: string | null | undefined, lastName: string | null | undefined, email?: string): string {
  const letters = `${firstName?.trim().charAt(0) ?? ''}${lastName?.trim().charAt(0) ?? ''}`;
  return (letters || email?.charAt(0) || 'U').toUpperCase();
}

export function roleLabel(role: string): string {
  return role === 'ADMIN' ? 'Administrator' : 'Reviewer';
}
