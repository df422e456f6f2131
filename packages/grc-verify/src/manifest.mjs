// @ts-check
// manifest.json: what the bundle claims. Its form is checked before any
// claim is relied on: the files with their size and SHA-256 (hex), the
// bundle's version, the chain head at close and the reconciliation.
import { VerifyFailure } from './failure.mjs';

export const MANIFEST = 'manifest.json';
export const SIGNATURE = 'manifest.sig';
/** The RFC 3161 timestamp token (or the TSA's whole answer); not listed in the manifest, since it signs the manifest's hash. */
export const TOKEN = 'manifest.tsr';

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * @typedef {{ path: string, size: number, sha256: string }} ManifestFile
 * @typedef {{ version: number, chainHead: string, files: ManifestFile[], reconciliation: unknown[] } & Record<string, unknown>} Manifest
 */

/**
 * @param {string} message
 * @param {import('./failure.mjs').FailureAt} [at]
 */
const fail = (message, at = {}) => new VerifyFailure('manifest', message, { file: MANIFEST, ...at });

/**
 * A value as the manifest has it, for a message ('(missing)' when it is not there).
 * @param {unknown} v
 */
const shown = (v) => (v === undefined ? '(missing)' : JSON.stringify(v));

/**
 * @param {unknown} v
 * @returns {v is number}
 */
export const isCount = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * @param {unknown} v
 * @returns {v is string}
 */
export const isSha256 = (v) => typeof v === 'string' && HEX64.test(v);

/**
 * Reads manifest.json and checks its form.
 * @param {Buffer} bytes
 * @returns {Manifest}
 */
export function parseManifest(bytes) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fail('manifest.json is not UTF-8 text');
  }
  /** @type {unknown} */
  let m;
  try {
    m = JSON.parse(text);
  } catch (e) {
    throw fail(`manifest.json is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw fail('manifest.json is not a JSON object');
  const o = /** @type {Record<string, unknown>} */ (m);
  if (typeof o.version !== 'number' || !Number.isSafeInteger(o.version) || o.version < 1)
    throw fail('manifest.version is not a positive whole number', { found: shown(o.version) });
  if (!isSha256(o.chainHead)) throw fail('manifest.chainHead is not a SHA-256 in lowercase hex', { found: shown(o.chainHead) });
  if (!Array.isArray(o.reconciliation)) throw fail('manifest.reconciliation is not a list');
  if (!Array.isArray(o.files)) throw fail('manifest.files is not a list');
  /** @type {Set<string>} */
  const seen = new Set();
  o.files.forEach((f, i) => {
    const where = `manifest.files[${i}]`;
    if (typeof f !== 'object' || f === null) throw fail(`${where} is not an object`);
    const { path, size, sha256 } = /** @type {Record<string, unknown>} */ (f);
    if (typeof path !== 'string' || path === '' || path.endsWith('/')) throw fail(`${where}.path is not a file name`, { found: shown(path) });
    if (path === MANIFEST || path === SIGNATURE || path === TOKEN) throw fail(`${where} lists '${path}', which the manifest cannot cover`);
    if (seen.has(path)) throw fail(`${where} lists '${path}' a second time`);
    seen.add(path);
    if (!isCount(size)) throw fail(`${where}.size is not a byte count`, { file: path, found: shown(size) });
    if (!isSha256(sha256)) throw fail(`${where}.sha256 is not a SHA-256 in lowercase hex`, { file: path, found: shown(sha256) });
  });
  return /** @type {Manifest} */ (o);
}
