// Which risk rows are the current data: rows of live uploads (an upload
// becomes live only when completely loaded, and a 'replace' takes the others
// out of it) and rows loaded without an upload. Every reader uses this.
import { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from '../core/types.js';

//
// The first condition adds nothing to which rows match, only speed: no live
// row has an id above the highest id of a live upload or of a row loaded
// without an upload, so a scan by id never steps over the (possibly
// millions of) invisible rows of a load in progress.
export const LIVE_ROWS = Prisma.sql`(r.id <= (SELECT greatest(v.max_unattached_row_id, coalesce((SELECT max(u.max_row_id) FROM uploads u WHERE u.live), 0)) FROM risk_data_version v WHERE v.id = 1)
  AND (r.upload_id IS NULL OR r.upload_id IN (SELECT u.id FROM uploads u WHERE u.live)))`;

/** Every live row: the record counts of the live uploads plus rows loaded without an upload. */
export async function liveRowCount(db: DbClient): Promise<number> {
  const r = await db.$queryRaw<{ n: bigint }[]>`
    SELECT (SELECT coalesce(sum(record_count), 0) FROM uploads WHERE live)::bigint
         + (SELECT count(*) FROM risk_rows WHERE upload_id IS NULL) AS n`;
  return Number(r[0]?.n ?? 0);
}
