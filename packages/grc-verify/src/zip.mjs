// @ts-check
// The bundle's ZIP as a set of named files. Only the central directory and
// the files' contents count: the order of the entries, their compression and
// their dates do not, so a bundle packed again by another tool verifies the
// same. Two entries under one name are refused (each tool would show a
// different one), as are names with '..', absolute names and backslashes.
import yauzl from 'yauzl';

/**
 * @typedef {{ entries: Map<string, import('yauzl').Entry>, stream: (name: string) => Promise<import('node:stream').Readable>, read: (name: string) => Promise<Buffer>, close: () => void }} Bundle
 */

/** The largest file read whole (manifest, signature, key, token); files listed in the manifest are streamed. */
const MAX_SMALL_FILE = 16 * 1024 * 1024;

/**
 * Opens the ZIP at `source` (a path or its bytes) and lists its files.
 * Directory entries (names ending in '/') carry no content and are left out.
 * @param {string | Buffer} source
 * @returns {Promise<Bundle>}
 */
export async function openBundle(source) {
  const options = { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true };
  const zip = typeof source === 'string' ? await yauzl.openPromise(source, options) : await yauzl.fromBufferPromise(source, options);
  /** @type {Map<string, import('yauzl').Entry>} */
  const entries = new Map();
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      if (entries.has(entry.fileName)) throw new Error(`two entries are named '${entry.fileName}'`);
      entries.set(entry.fileName, entry);
    }
  } catch (e) {
    zip.close();
    throw e;
  }
  /** @param {string} name */
  const stream = async (name) => {
    const entry = entries.get(name);
    if (!entry) throw new Error(`no entry '${name}'`);
    return zip.openReadStreamPromise(entry);
  };
  /** @param {string} name */
  const read = async (name) => {
    const entry = entries.get(name);
    if (entry && entry.uncompressedSize > MAX_SMALL_FILE) throw new Error(`'${name}' is larger than ${MAX_SMALL_FILE} bytes`);
    /** @type {Buffer[]} */
    const chunks = [];
    for await (const chunk of await stream(name)) chunks.push(chunk);
    return Buffer.concat(chunks);
  };
  return { entries, stream, read, close: () => zip.close() };
}
