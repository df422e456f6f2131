// Removing the rows of uploads that are not live: a failed load's, the data
// a 'replace' took out of use, an interrupted attempt's before a retry; and
// then the search terms that only those rows carried.
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { dispatch } from '../kept/dispatcher.js';

/** Deletes an upload's rows; returns how many. */
export async function deleteUploadRows(prisma: PrismaClient, uploadId: string): Promise<number> {
  // In slices, so other requests are answered in between.
  let total = 0;
  for (;;) {
    const n = await prisma.$executeRaw`
      DELETE FROM risk_rows WHERE id IN (SELECT id FROM risk_rows WHERE upload_id = ${uploadId}::uuid LIMIT 20000)`;
    if (n === 0) {
      await dispatch(prisma, { kind: 'upload-rows-deleted', uploadId });
      return total;
    }
    total += n;
  }
}

/** Deletes the rows of uploads that are no longer live (superseded or failed). */
export async function purgeDeadRows(prisma: PrismaClient) {
  const dead = await prisma.upload.findMany({
    where: { live: false, status: { not: 'processing' } },
    select: { id: true },
  });
  await removeRowsOf(
    prisma,
    dead.map((u) => u.id),
  );
}

/** Deletes these uploads' rows, then the search terms only they carried. */
export async function removeRowsOf(prisma: PrismaClient, uploadIds: string[]) {
  let removed = 0;
  for (const id of uploadIds) removed += await deleteUploadRows(prisma, id);
  if (removed) await pruneSearchTerms(prisma);
}

/** For each kind of search term: the rows' columns that carry it (value, label). */
const TERM_SOURCES = {
  user: Prisma.sql`r.user_id = t.value AND r.user_name = t.label`,
  role: Prisma.sql`r.role_profile = t.value`,
  risk: Prisma.sql`r.access_risk_id = t.value AND r.risk_description = t.label`,
} as const;

/**
 * Forgets the search terms (risk_terms) that no row carries any more, so the
 * table does not keep every user, role and risk of every file ever loaded.
 * The candidates are found first (one pass over the rows, no lock: ~1 s on
 * 1M rows); they are deleted under a SHARE ROW EXCLUSIVE lock on risk_terms,
 * each checked again: the lock first waits for loads whose insert trigger has
 * touched the table to commit (their rows are then seen), and a load whose
 * trigger comes later waits for it and adds its terms back afterwards. So a
 * term that a row carries is never lost, and loads wait only for the recheck.
 */
async function pruneSearchTerms(prisma: PrismaClient) {
  const candidates = new Map<keyof typeof TERM_SOURCES, { values: string[]; labels: string[] }>();
  for (const [kind, carried] of Object.entries(TERM_SOURCES) as [keyof typeof TERM_SOURCES, Prisma.Sql][]) {
    const rows = await prisma.$queryRaw<{ value: string; label: string }[]>`
      SELECT t.value, t.label FROM risk_terms t WHERE t.kind = ${kind} AND NOT EXISTS (SELECT 1 FROM risk_rows r WHERE ${carried})`;
    if (rows.length) candidates.set(kind, { values: rows.map((r) => r.value), labels: rows.map((r) => r.label) });
  }
  if (!candidates.size) return;
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`LOCK TABLE risk_terms IN SHARE ROW EXCLUSIVE MODE`;
      for (const [kind, c] of candidates) {
        await tx.$executeRaw`
          DELETE FROM risk_terms t USING unnest(${c.values}::text[], ${c.labels}::text[]) AS x(value, label)
           WHERE t.kind = ${kind} AND t.value = x.value AND t.label = x.label
             AND NOT EXISTS (SELECT 1 FROM risk_rows r WHERE ${TERM_SOURCES[kind]})`;
      }
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}
