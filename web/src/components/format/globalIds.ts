/** The database id inside a global id of `typename` ('<typename>:<id>' in base64); null when it is not one. */
export function databaseIdOf(globalId: string, typename: string): string | null {
  try {
    const decoded = window.atob(globalId);
    return decoded.startsWith(`${typename}:`) ? decoded.slice(typename.length + 1) : null;
  } catch {
    return null;
  }
}
