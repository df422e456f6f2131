// How a person is named, on screen (GraphQL `User.displayName`, which the web
// shows) and in every file (risk report, remediation list, evidence, audit):
// the first and last names that are not blank, joined by one space; in files
// followed by the e-mail in angle brackets. One rule, written once in
// JavaScript and once as the SQL the bulk exports run.
import { Prisma } from '../generated/prisma/client.js';

type Named = { firstName?: string | null; lastName?: string | null };

/** 'Ada Lovelace', 'Administrator' (no last name), '' when neither name is set. */
export function displayName(u: Named): string {
  return [u.firstName, u.lastName]
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
}

/** 'Ada Lovelace <ada@example.com>', '<ada@example.com>' without a name. */
export function personLabel(u: Named & { email: string }): string {
  const name = displayName(u);
  return name ? `${name} <${u.email}>` : `<${u.email}>`;
}

/** displayName as SQL over the users table aliased `alias` (NULL when neither name is set). */
export function displayNameSql(alias: string): string {
  return `nullif(concat_ws(' ', nullif(trim(${alias}.first_name), ''), nullif(trim(${alias}.last_name), '')), '')`;
}

/** personLabel as SQL over the users table aliased `alias` (NULL when there is no such user). */
export function personLabelSql(alias: string): string {
  return `CASE WHEN ${alias}.email IS NOT NULL THEN concat_ws(' ', ${displayNameSql(alias)}, '<' || ${alias}.email || '>') END`;
}

/** personLabelSql as a fragment for tagged queries. */
export function personLabelFragment(alias: string): Prisma.Sql {
  return Prisma.raw(personLabelSql(alias));
}
