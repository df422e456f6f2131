// @ts-check
// Every file the manifest lists is in the ZIP with the stated size and
// SHA-256, and the ZIP holds nothing else but the manifest, its signature
// and the timestamp token: a file added after signing is as much a change as
// a file altered.
import crypto from 'node:crypto';
import { VerifyFailure } from './failure.mjs';
import { MANIFEST, SIGNATURE, TOKEN } from './manifest.mjs';

/**
 * The size and SHA-256 of one file of the ZIP, read as a stream.
 * @param {import('./zip.mjs').Bundle} bundle
 * @param {string} path
 */
async function digest(bundle, path) {
  const hash = crypto.createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of await bundle.stream(path)) {
      hash.update(chunk);
      size += chunk.length;
    }
  } catch (e) {
    throw new VerifyFailure('files', `${path} cannot be read from the ZIP: ${e instanceof Error ? e.message : String(e)}`, { file: path });
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * @param {import('./zip.mjs').Bundle} bundle
 * @param {import('./manifest.mjs').Manifest} manifest
 * @returns {Promise<{ count: number, bytes: number }>}
 */
export async function checkFiles(bundle, manifest) {
  let bytes = 0;
  for (const f of manifest.files) {
    if (!bundle.entries.has(f.path)) throw new VerifyFailure('files', `${f.path} is listed in the manifest but is not in the ZIP`, { file: f.path });
    const { size, sha256 } = await digest(bundle, f.path);
    if (size !== f.size)
      throw new VerifyFailure('files', `${f.path}: size differs from the manifest`, { file: f.path, expected: String(f.size), found: String(size) });
    if (sha256 !== f.sha256)
      throw new VerifyFailure('files', `${f.path}: SHA-256 differs from the manifest`, { file: f.path, expected: f.sha256, found: sha256 });
    bytes += size;
  }
  const listed = new Set([MANIFEST, SIGNATURE, TOKEN, ...manifest.files.map((f) => f.path)]);
  for (const name of bundle.entries.keys()) {
    if (!listed.has(name)) throw new VerifyFailure('files', `${name} is in the ZIP but not listed in the manifest`, { file: name });
  }
  return { count: manifest.files.length, bytes };
}
