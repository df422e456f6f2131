// Duplicate checking: the set of row hashes already seen, filled first with
// the hashes of the rows already live (on an append), so a row equal to one
// already loaded, or to an earlier one in the file, is skipped.
import crypto from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from '../core/types.js';
import { DigestSet } from './hash-set.js';

/** Adds a stored row_hash (base64 SHA-1, as rows.ts writes it) to the duplicate set. */
function addStoredHash(into: DigestSet, h: string) {
  if (h.length >= 22 && /^[A-Za-z0-9+/]+=*$/.test(h)) into.addBase64(h);
  // Not written by this loader: keyed by a digest of its text, so it still counts once.
  else into.add(crypto.hash('sha1', h, 'buffer'));
}

/** Adds the row_hash of every risk row `r` that matches `rows` (a condition on `r`). */
async function addHashesOf(db: DbClient, rows: Prisma.Sql, into: DigestSet) {
  // In slices of 100,000, so neither memory nor other requests wait on one big result.
  let after = 0n;
  for (;;) {
    const found = await db.$queryRaw<{ id: bigint; row_hash: string | null }[]>`
      SELECT r.id, r.row_hash FROM risk_rows r WHERE r.id > ${after} AND ${rows} ORDER BY r.id LIMIT 100000`;
    if (!found.length) return;
    for (const r of found) if (r.row_hash) addStoredHash(into, r.row_hash);
    after = BigInt(found[found.length - 1]!.id);
  }
}

/**
 * The duplicate set of a load: ~12 bytes a row at load 0.7 (see
 * hash-set.ts), the only state that grows with the file. Sized up front from
 * the rows already there and the rows the file is expected to hold, so it
 * rarely has to grow; when `existing` rows are there, the hashes of the rows
 * matching `existingRows` (a condition on risk_rows `r`) are added first.
 */
export async function duplicateSet(db: DbClient, opts: { existing: number; expected: number; existingRows: Prisma.Sql }): Promise<DigestSet> {
  const seen = new DigestSet(opts.existing + opts.expected);
  if (opts.existing) await addHashesOf(db, opts.existingRows, seen);
  return seen;
}
