// @ts-check
// manifest.sig is a detached Ed25519 signature (base64) over the exact bytes
// of manifest.json, under the installation's public key that the bundle
// carries (PEM, SPKI). The key in the bundle only proves the bundle is whole
// as its signer made it; that the signer is the installation is shown by the
// key the installation publishes at /.well-known/grc-evidence-key, given
// with --key.
import crypto from 'node:crypto';
import { VerifyFailure } from './failure.mjs';
import { SIGNATURE } from './manifest.mjs';

/** The bundle's copy of the public key (PEM, SPKI), a file the manifest lists. */
export const KEY_FILE = 'public-key.pem';

/**
 * The SHA-256 of a public key's SPKI encoding (hex): how two keys are compared and shown.
 * @param {crypto.KeyObject} key
 */
export function fingerprint(key) {
  return crypto
    .createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/**
 * Reads an Ed25519 public key from PEM text.
 * @param {string} pem
 * @param {string} check the check refused in its name
 * @param {string} where names the key's origin in the refusal
 * @returns {crypto.KeyObject}
 */
export function ed25519Key(pem, check, where) {
  let key;
  try {
    key = crypto.createPublicKey({ key: pem, format: 'pem' });
  } catch (e) {
    throw new VerifyFailure(check, `${where} is not a PEM public key: ${e instanceof Error ? e.message : String(e)}`, { file: where });
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new VerifyFailure(check, `${where} is not an Ed25519 key`, { file: where, expected: 'ed25519', found: String(key.asymmetricKeyType) });
  return key;
}

/**
 * The bundle's public key, from KEY_FILE.
 * @param {import('./zip.mjs').Bundle} bundle
 * @returns {Promise<{ key: crypto.KeyObject, where: string }>}
 */
export async function bundleKey(bundle) {
  if (!bundle.entries.has(KEY_FILE)) throw new VerifyFailure('signature', `the bundle carries no public key (${KEY_FILE})`, { file: KEY_FILE });
  return { key: ed25519Key((await bundle.read(KEY_FILE)).toString('utf8'), 'signature', KEY_FILE), where: KEY_FILE };
}

/**
 * manifest.sig verifies over manifest.json's bytes under `key`.
 * @param {Buffer} manifestBytes
 * @param {Buffer | undefined} sigFile manifest.sig's bytes, undefined when absent
 * @param {{ key: crypto.KeyObject, where: string }} signer
 */
export function checkSignature(manifestBytes, sigFile, signer) {
  if (!sigFile) throw new VerifyFailure('signature', 'manifest.sig is not in the ZIP', { file: SIGNATURE });
  const text = sigFile.toString('latin1').trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw new VerifyFailure('signature', 'manifest.sig is not base64 text', { file: SIGNATURE });
  const sig = Buffer.from(text, 'base64');
  if (sig.length !== 64)
    throw new VerifyFailure('signature', 'manifest.sig is not an Ed25519 signature (64 bytes)', { file: SIGNATURE, expected: '64', found: String(sig.length) });
  if (!crypto.verify(null, manifestBytes, signer.key, sig)) {
    throw new VerifyFailure('signature', `manifest.sig is not a signature of manifest.json by the key in ${signer.where}`, {
      file: SIGNATURE,
      expected: fingerprint(signer.key),
    });
  }
}

/**
 * The bundle's key is the one given (the installation's published key).
 * @param {crypto.KeyObject} bundleKeyObject
 * @param {string} givenPem
 * @param {string} givenFile
 */
export function checkSameKey(bundleKeyObject, givenPem, givenFile) {
  const given = ed25519Key(givenPem, 'key', givenFile);
  if (!given.equals(bundleKeyObject)) {
    throw new VerifyFailure('key', `the bundle is signed by another key than the one in ${givenFile}`, {
      file: givenFile,
      expected: fingerprint(given),
      found: fingerprint(bundleKeyObject),
    });
  }
  return given;
}
