// A system's access extract: a .zip of SAP tables, checked at once for what
// can be told at once (a zip, the tables an analysis needs), then loaded by a
// job (jobs/access.ts) table by table with COPY (ingest/access/extract-tables.ts),
// with its progress kept on the extract. Its rows are used by no run until it
// is 'completed'; a failure removes them and says which table, line and
// column. A completed extract supersedes the earlier ones of its system for
// later runs (runs that used them keep them).
import type { AppDeps } from '../deps.js';
import type { Caller } from '../caller.js';
import { actorLabel, recordAudit } from '../../core/audit.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { JOBS, onTransaction } from '../../db/queue.js';
import { withPlanSettings } from '../../db/plan-settings.js';
import { IngestError } from '../../ingest/csv.js';
import { openZipTables } from '../../ingest/access/zip-tables.js';
import { EXTRACT_TABLES, REQUIRED_TABLES, checkExtractColumns, loadExtractTable } from '../../ingest/access/extract-tables.js';
import { discardReceived, type ReceivedFile } from '../uploads/uploads.js';
import { UUID } from './rule-sets.js';

export type ExtractLoadDeps = Pick<AppDeps, 'prisma' | 'db' | 'config' | 'storage'>;

/** A system's name as SAP landscapes write it ('PRD-ECC', 'S4P_100'). */
export const SYSTEM_NAME = /^[A-Za-z0-9][A-Za-z0-9_.\-]{0,39}$/;

export function checkSystem(system: string): string {
  if (!SYSTEM_NAME.test(system)) throw new ValidationError(`system: '${system}' is not a system name (letters, digits, '-', '_' or '.', 40 at most)`, 'system');
  return system;
}

const SUMMARY = {
  id: true,
  system: true,
  status: true,
  errorMessage: true,
  progress: true,
  users: true,
  roles: true,
  assignments: true,
  authorizations: true,
  fileName: true,
  loadedBy: true,
  loadedAt: true,
  completedAt: true,
  supersededAt: true,
} as const;

/** Where an extract's file is kept from its upload until its load ends. */
export const extractKey = (id: string) => `uploads/access-extracts/${id}.zip`;

/**
 * Checks what can be told at once, keeps the file and queues its load
 * (loadExtract, by the job): { id, status: 'processing' }.
 */
export async function startExtract(caller: Caller, system: string, file: ReceivedFile): Promise<{ id: string; status: string }> {
  const { deps, actor } = caller;
  try {
    checkSystem(system);
    try {
      const zip = await openZipTables(deps.storage.source(file.key), 'An access extract');
      try {
        const missing = REQUIRED_TABLES.filter((t) => !zip.tables.has(t));
        if (missing.length) {
          throw new IngestError(
            `The extract has no ${missing.map((m) => m.toUpperCase()).join(', ')} (it needs ${REQUIRED_TABLES.map((m) => m.toUpperCase()).join(', ')}; USER_ADDR, AGR_TEXTS and USAGE are optional).`,
          );
        }
        await checkExtractColumns(zip);
      } finally {
        await zip.close();
      }
    } catch (e) {
      if (e instanceof IngestError) throw new ValidationError(e.message, 'file');
      throw e;
    }
    return await deps.prisma.$transaction(async (tx) => {
      const x = await tx.accessExtract.create({
        data: { system, fileName: file.originalName, loadedBy: actorLabel(actor) },
        select: { id: true, status: true },
      });
      await deps.storage.move(file.key, extractKey(x.id));
      // The load job exists once the extract does (a rollback sends none).
      // Retries and expiry are the queue's (jobs/access.ts).
      await deps.jobs.boss.send(JOBS.accessExtract, { extractId: x.id }, { db: onTransaction(tx) });
      await recordAudit(tx, actor, {
        action: 'access.extract.started',
        entityType: 'access_extract',
        entityId: x.id,
        after: { system, file: file.originalName },
      });
      return x;
    });
  } finally {
    await discardReceived(deps.storage, file);
  }
}

/** Removes every row an extract loaded. */
export async function removeRows(deps: ExtractLoadDeps, id: string): Promise<void> {
  for (const t of EXTRACT_TABLES) await deps.db.sql.query(`DELETE FROM ${t.table} WHERE extract_id = $1`, [id]);
}

/** Loads a queued extract from its kept file; a failure ends it 'failed' with nothing of it kept. */
export async function loadExtract(deps: ExtractLoadDeps, id: string): Promise<void> {
  const { prisma, db } = deps;
  const x = await prisma.accessExtract.findUnique({ where: { id } });
  if (!x || x.status !== 'processing') return;
  // An earlier, interrupted attempt may have left rows.
  await removeRows(deps, id);
  try {
    const zip = await openZipTables(deps.storage.source(extractKey(id)), 'The extract');
    try {
      const present = EXTRACT_TABLES.filter((t) => zip.tables.has(t.name));
      const total = present.reduce((s, t) => s + zip.tables.get(t.name)!.size, 0) || 1;
      let done = 0;
      for (const t of present) {
        const size = zip.tables.get(t.name)!.size;
        let lastPercent = -1;
        await loadExtractTable(db.sql, zip, t, id, async () => {
          const percent = Math.min(99, Math.floor((done * 100) / total));
          if (percent !== lastPercent) await prisma.accessExtract.update({ where: { id }, data: { progress: percent } });
          lastPercent = percent;
        });
        done += size;
      }
      await refuseDuplicateUsers(deps, id, zip.tables.get('usr02')!.fileName);
    } finally {
      await zip.close();
    }
    // The distinct authorizations of a large extract are millions of groups: with the default
    // work_mem their hash spilled to disk and the counts took longer than loading AGR_1251.
    const [counts] = await withPlanSettings(
      prisma,
      { workMem: '256MB' },
      prisma.$queryRaw<{ users: number; roles: number; assignments: number; authorizations: number }[]>`
        SELECT (SELECT count(DISTINCT bname) FROM access_x_usr02 WHERE extract_id = ${id}::uuid)::int AS users,
               (SELECT count(*) FROM (SELECT agr_name FROM access_x_agr_users WHERE extract_id = ${id}::uuid
                  UNION SELECT agr_name FROM access_x_agr_agrs WHERE extract_id = ${id}::uuid
                  UNION SELECT child_agr FROM access_x_agr_agrs WHERE extract_id = ${id}::uuid
                  UNION SELECT agr_name FROM access_x_agr_1251 WHERE extract_id = ${id}::uuid) r)::int AS roles,
               (SELECT count(*) FROM access_x_agr_users WHERE extract_id = ${id}::uuid)::int AS assignments,
               (SELECT count(*) FROM (SELECT DISTINCT agr_name, object, auth FROM access_x_agr_1251 WHERE extract_id = ${id}::uuid) a)::int AS authorizations`,
    );
    // Fresh statistics: the analysis plans its joins on them.
    await db.sql.exec(`ANALYZE ${EXTRACT_TABLES.map((t) => t.table).join(', ')}`);
    await prisma.$transaction(async (tx) => {
      const now = new Date();
      // The newest completed extract of a system is the one later runs use.
      await tx.accessExtract.updateMany({
        where: { system: x.system, status: 'completed', supersededAt: null, loadedAt: { lt: x.loadedAt } },
        data: { supersededAt: now },
      });
      const newer = await tx.accessExtract.count({ where: { system: x.system, status: 'completed', loadedAt: { gt: x.loadedAt } } });
      await tx.accessExtract.update({
        where: { id },
        data: { status: 'completed', progress: 100, completedAt: now, supersededAt: newer ? now : null, ...counts! },
      });
    });
  } catch (e) {
    const message = e instanceof IngestError || e instanceof ValidationError ? e.message : `The extract could not be loaded: ${(e as Error).message}`;
    await removeRows(deps, id);
    await prisma.accessExtract.update({ where: { id }, data: { status: 'failed', errorMessage: message } });
  } finally {
    await deps.storage.delete(extractKey(id)).catch(() => {});
  }
}

/** USR02 names each user once: a second row of a BNAME is refused with its line. */
async function refuseDuplicateUsers(deps: ExtractLoadDeps, id: string, fileName: string): Promise<void> {
  const [dup] = await deps.db.sql.query<{ bname: string; first: number; line: number }>(
    `SELECT bname, first, line FROM (SELECT bname, line, min(line) OVER (PARTITION BY bname) AS first FROM access_x_usr02 WHERE extract_id = $1) d
      WHERE line <> first ORDER BY line LIMIT 1`,
    [id],
  );
  if (dup) throw new IngestError(`${fileName}, line ${dup.line}, column 'BNAME': the user '${dup.bname}' is already on line ${dup.first}.`);
}

/** An extract of a system, or 404. */
export async function getExtract(caller: Caller, system: string, id: string) {
  const x = UUID.test(id) ? await caller.deps.prisma.accessExtract.findUnique({ where: { id }, select: SUMMARY }) : null;
  if (!x || x.system !== system) throw new NotFoundError(`No extract ${id} of system ${system}`);
  return x;
}

/** The extract each system's later runs use: its newest completed one. */
export async function currentExtracts(deps: Pick<AppDeps, 'prisma'>, systems?: string[]) {
  return deps.prisma.accessExtract.findMany({
    where: { status: 'completed', supersededAt: null, ...(systems ? { system: { in: systems } } : {}) },
    orderBy: { system: 'asc' },
    select: SUMMARY,
  });
}
