// Which risk rows are the current data: rows of live uploads (an upload
// becomes live only when completely loaded, and a 'replace' takes the others
// out of it) and rows loaded without an upload. Every reader uses this.
import { Prisma } from '../generated/prisma/client.js';

export const LIVE_ROWS = Prisma.sql`(r.upload_id IS NULL OR r.upload_id IN (SELECT u.id FROM uploads u WHERE u.live))`;
