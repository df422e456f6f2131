// @ts-check
// Verifies an evidence bundle offline, one check after the other, stopping
// at the first that fails (what follows would rest on something already
// shown false): the ZIP, the manifest's form, every file against the
// manifest, the manifest's signature, the signer's key against the one
// given, the timestamp token, the audit chain and the reconciliation.
import { VerifyFailure } from './failure.mjs';
import { openBundle } from './zip.mjs';
import { MANIFEST, SIGNATURE, TOKEN, parseManifest } from './manifest.mjs';
import { checkFiles } from './files.mjs';
import { bundleKey, checkSignature, checkSameKey, fingerprint } from './signature.mjs';
import { checkTimestamp } from './timestamp.mjs';
import { checkEvents } from './events.mjs';
import { checkReconciliation } from './reconciliation.mjs';

/** The checks in the order they run. */
export const CHECKS = Object.freeze(['archive', 'manifest', 'files', 'signature', 'key', 'timestamp', 'chain', 'reconciliation']);

/**
 * @typedef {{ check: string, status: 'ok' | 'skipped', summary: string }} CheckLine
 * @typedef {{ check: string, message: string } & import('./failure.mjs').FailureAt} Failure
 * @typedef {{ ok: boolean, checks: CheckLine[], failure: Failure | null }} Report
 * @typedef {{ key?: { pem: string, file: string }, onCheck?: (line: CheckLine) => void }} VerifyOptions
 */

/**
 * Verifies the bundle at `source` (a path or the ZIP's bytes).
 * @param {string | Buffer} source
 * @param {VerifyOptions} [options]
 * @returns {Promise<Report>}
 */
export async function verifyBundle(source, options = {}) {
  /** @type {CheckLine[]} */
  const checks = [];
  /** @type {(check: string, summary: string, status?: 'ok' | 'skipped') => void} */
  const pass = (check, summary, status = 'ok') => {
    const line = { check, status, summary };
    checks.push(line);
    options.onCheck?.(line);
  };
  /** @type {import('./zip.mjs').Bundle | undefined} */
  let bundle;
  try {
    try {
      bundle = await openBundle(source);
    } catch (e) {
      throw new VerifyFailure('archive', `not a readable ZIP: ${e instanceof Error ? e.message : String(e)}`);
    }
    pass('archive', `${bundle.entries.size} files in the ZIP`);
    await runChecks(bundle, options, pass);
    return { ok: true, checks, failure: null };
  } catch (e) {
    if (e instanceof VerifyFailure) return { ok: false, checks, failure: { check: e.check, message: e.message, ...e.at } };
    // Anything else (a file of the ZIP that cannot be inflated, say) fails the check under way, the one after the last passed.
    const check = CHECKS[checks.length] ?? 'archive';
    return { ok: false, checks, failure: { check, message: e instanceof Error ? e.message : String(e) } };
  } finally {
    bundle?.close();
  }
}

/**
 * The checks after the ZIP is open, in order.
 * @param {import('./zip.mjs').Bundle} bundle
 * @param {VerifyOptions} options
 * @param {(check: string, summary: string, status?: 'ok' | 'skipped') => void} pass
 */
async function runChecks(bundle, options, pass) {
  if (!bundle.entries.has(MANIFEST)) throw new VerifyFailure('manifest', 'manifest.json is not in the ZIP', { file: MANIFEST });
  const manifestBytes = await bundle.read(MANIFEST);
  const manifest = parseManifest(manifestBytes);
  pass('manifest', `manifest.json is well-formed: bundle version ${manifest.version}, ${manifest.files.length} files listed, chain head ${manifest.chainHead}`);

  const files = await checkFiles(bundle, manifest);
  pass('files', `${files.count} files match their size and SHA-256 in the manifest (${files.bytes} bytes); none unlisted`);

  const signer = await bundleKey(bundle);
  checkSignature(manifestBytes, bundle.entries.has(SIGNATURE) ? await bundle.read(SIGNATURE) : undefined, signer);
  pass('signature', `manifest.sig is a valid Ed25519 signature of manifest.json by the key in ${signer.where} (key SHA-256 ${fingerprint(signer.key)})`);

  if (options.key) {
    checkSameKey(signer.key, options.key.pem, options.key.file);
    pass('key', `the bundle's key is the key in ${options.key.file}`);
  } else {
    pass('key', "not compared: give --key with the installation's published key (/.well-known/grc-evidence-key) to know who signed", 'skipped');
  }

  if (bundle.entries.has(TOKEN)) {
    const t = checkTimestamp(TOKEN, await bundle.read(TOKEN), manifestBytes);
    pass(
      'timestamp',
      `${TOKEN}: the TSA '${t.tsa}' timestamped manifest.json's ${t.imprintAlgorithm.toUpperCase()} at ${t.genTime}; its signature verifies under its certificate (SHA-256 ${t.certificateSha256})`,
    );
  } else {
    pass('timestamp', 'no timestamp token in the bundle', 'skipped');
  }

  const chain = await checkEvents(bundle, manifest);
  const between = chain.gaps ? ` (${chain.gaps} gaps where other events of the chain stand)` : ' (an unbroken run)';
  pass(
    'chain',
    `${chain.events} audit events hash and link in chain order${between} up to the period's close (event ${chain.closeEventId}), whose hash is the manifest's chain head`,
  );

  const rec = checkReconciliation(manifest.reconciliation);
  const unexplained = rec.unexplainedRows ? `; ${rec.unexplainedRows} rows UNEXPLAINED: the bundle says the period was not reconciled` : '';
  pass(
    'reconciliation',
    `${rec.sources} sources add up: ${rec.rowsInFile} rows in the files, ${rec.rowsInScope} in scope, ${rec.differences} differences with their reasons${unexplained}`,
  );
}
