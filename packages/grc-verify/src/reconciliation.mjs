// @ts-check
// The population, reconciled: per source upload (or analysis run) the rows
// are followed from the file to the decisions, and every row of the file that
// was not decided is a difference with its reason (duplicates skipped, rows
// that left the review, rows left undecided, or 'Unexplained: …'). Per source:
//   rowsLoaded  = rowsInFile − duplicatesSkipped          (rowsLoaded excludes skipped duplicates)
//   rowsInScope = retain + remove + mitigated + defaultAtClose + undecided
//   Σ differences.rows = rowsInFile − (retain + remove + mitigated + defaultAtClose)
// A difference may be negative (more rows in scope than were loaded); an
// unexplained one still adds up, and is shown, since the bundle says the
// period was not reconciled.
import { VerifyFailure } from './failure.mjs';
import { isCount, isSha256 } from './manifest.mjs';

/**
 * @typedef {{ uploadId: string | null, fileName: string, sha256: string | null, rowsInFile: number, duplicatesSkipped: number, rowsLoaded: number, rowsInScope: number, decided: { retain: number, remove: number, mitigated: number, defaultAtClose: number }, undecided: number, differences: { rows: number, reason: string }[] }} Source
 */

const COUNTS = /** @type {const} */ (['rowsInFile', 'duplicatesSkipped', 'rowsLoaded', 'rowsInScope', 'undecided']);
const DECIDED = /** @type {const} */ (['retain', 'remove', 'mitigated', 'defaultAtClose']);
const UNEXPLAINED = /^unexplained\b/i;

/**
 * @param {number} i
 * @param {string} message
 * @param {{ expected?: number, found?: number }} [values]
 */
function fail(i, message, values = {}) {
  return new VerifyFailure('reconciliation', `manifest.reconciliation[${i}]: ${message}`, {
    file: 'manifest.json',
    ...(values.expected === undefined ? {} : { expected: String(values.expected) }),
    ...(values.found === undefined ? {} : { found: String(values.found) }),
  });
}

/**
 * The entry's form: names, the source's SHA-256, counts that are whole and not negative.
 * @param {unknown} entry
 * @param {number} i
 * @returns {Source}
 */
function sourceOf(entry, i) {
  if (typeof entry !== 'object' || entry === null) throw fail(i, 'is not an object');
  const s = /** @type {Record<string, unknown>} */ (entry);
  if (s.uploadId !== null && (typeof s.uploadId !== 'string' || s.uploadId === '')) throw fail(i, 'uploadId is neither an id nor null');
  if (typeof s.fileName !== 'string') throw fail(i, 'fileName is missing');
  if (s.sha256 !== null && !isSha256(s.sha256)) throw fail(i, 'sha256 is neither a SHA-256 in lowercase hex nor null');
  for (const k of COUNTS) if (!isCount(s[k])) throw fail(i, `${k} is not a row count`);
  const decided = /** @type {Record<string, unknown>} */ (s.decided);
  if (typeof decided !== 'object' || decided === null) throw fail(i, 'decided is missing');
  for (const k of DECIDED) if (!isCount(decided[k])) throw fail(i, `decided.${k} is not a row count`);
  if (!Array.isArray(s.differences)) throw fail(i, 'differences is not a list');
  s.differences.forEach((d, j) => {
    const o = /** @type {Record<string, unknown>} */ (d);
    if (typeof o !== 'object' || o === null || typeof o.rows !== 'number' || !Number.isSafeInteger(o.rows) || o.rows === 0) {
      throw fail(i, `differences[${j}].rows is not a whole number of rows`);
    }
    if (typeof o.reason !== 'string' || o.reason.trim() === '') throw fail(i, `differences[${j}] gives no reason`);
  });
  return /** @type {Source} */ (s);
}

/**
 * Checks one source's arithmetic.
 * @param {Source} s
 * @param {number} i
 */
function checkSource(s, i) {
  const name = `${s.fileName} (${s.uploadId ?? 'no upload'})`;
  if (s.rowsInFile - s.duplicatesSkipped !== s.rowsLoaded) {
    throw fail(i, `${name}: rows loaded are not the rows in the file less the duplicates skipped`, {
      expected: s.rowsInFile - s.duplicatesSkipped,
      found: s.rowsLoaded,
    });
  }
  const decided = s.decided.retain + s.decided.remove + s.decided.mitigated + s.decided.defaultAtClose;
  if (decided + s.undecided !== s.rowsInScope) {
    throw fail(i, `${name}: decided (${decided}) and undecided (${s.undecided}) rows do not add up to the rows in scope`, {
      expected: s.rowsInScope,
      found: decided + s.undecided,
    });
  }
  const explained = s.differences.reduce((sum, d) => sum + d.rows, 0);
  if (explained !== s.rowsInFile - decided) {
    throw fail(i, `${name}: the differences account for ${explained} rows, but ${s.rowsInFile - decided} rows of the file were not decided`, {
      expected: s.rowsInFile - decided,
      found: explained,
    });
  }
}

/**
 * Checks every source's arithmetic.
 * @param {unknown[]} reconciliation manifest.reconciliation
 * @returns {{ sources: number, rowsInFile: number, rowsInScope: number, differences: number, unexplainedRows: number }}
 */
export function checkReconciliation(reconciliation) {
  const totals = { sources: 0, rowsInFile: 0, rowsInScope: 0, differences: 0, unexplainedRows: 0 };
  reconciliation.forEach((entry, i) => {
    const s = sourceOf(entry, i);
    checkSource(s, i);
    totals.sources++;
    totals.rowsInFile += s.rowsInFile;
    totals.rowsInScope += s.rowsInScope;
    totals.differences += s.differences.length;
    for (const d of s.differences) if (UNEXPLAINED.test(d.reason.trim())) totals.unexplainedRows += Math.abs(d.rows);
  });
  return totals;
}
