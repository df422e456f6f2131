// For the dashboard figures' tests (scope-figures, the figures' job): a small
// export's rows, the readers' own counts as they appear in the statements a
// test records, and the data versions the figures are kept at.
import type { PrismaClient } from '../../src/generated/prisma/client.js';

export const HEADER = 'User ID,User Name,User Group,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\n';
export const row = (user: string, group: string, risk: string, level: string, system: string, role: string) =>
  `${user},Name ${user},${group},${risk},Risk ${risk},${level},0101,${system},${role}\r\n`;

/** The readers' own counts over the live rows (services/kept/scope-figures.ts). */
const COUNTS = [
  /count\(DISTINCT r\.user_id\) FILTER/,
  /HAVING min\(r\.created_at\)/,
  /r\.created_at AT TIME ZONE 'UTC'\) AS b, count\(\*\)/,
  /AS category, count\(\*\)/,
];

/** How many of the readers' own counts these statements ran. */
export const readerCounts = (statements: readonly string[]) => statements.filter((s) => COUNTS.some((x) => x.test(s))).length;

/** The data version and category version the figures are kept at. */
export const dataVersions = async (prisma: PrismaClient) =>
  (await prisma.$queryRawUnsafe<{ v: bigint; c: bigint }[]>(`SELECT version AS v, category_version AS c FROM risk_data_version WHERE id = 1`))[0]!;
