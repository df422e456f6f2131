// The local store: the files under DATA_DIR, at the paths they always had
// (a key is the path relative to the folder), so existing data keeps working.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, StoredFileMissing, type ByteSource, type ObjectStore, type StoredObject } from './store.js';

/** The chunk the readers are handed (the CSV reader's hot loop works one chunk at a time). */
const READ_CHUNK = 1 << 20;

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** A file on this machine as a byte source (the stored files of the local store, and work files the readers open). */
export function fileSource(file: string, name = file): ByteSource {
  return {
    name,
    path: file,
    async size() {
      try {
        return (await fs.promises.stat(file)).size;
      } catch (err) {
        throw missing(err) ? new StoredFileMissing(name) : err;
      }
    },
    read(start = 0, end?: number) {
      return fs.createReadStream(file, { start, ...(end === undefined ? {} : { end }), highWaterMark: READ_CHUNK });
    },
  };
}

/** A path as a byte source; a source as it is. */
export const asSource = (file: string | ByteSource): ByteSource => (typeof file === 'string' ? fileSource(file) : file);

export function localStore(root: string): ObjectStore {
  const fileOf = (key: string) => path.join(root, ...checkKey(key).split('/'));
  async function walk(dir: string, out: StoredObject[], keyPrefix: string) {
    for (const d of await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [] as fs.Dirent[])) {
      const full = path.join(dir, d.name);
      if (d.isDirectory()) await walk(full, out, `${keyPrefix}${d.name}/`);
      else if (d.isFile()) {
        const st = await fs.promises.stat(full).catch(() => null);
        if (st) out.push({ key: `${keyPrefix}${d.name}`, size: st.size, modifiedAt: st.mtime });
      }
    }
  }
  return {
    kind: 'local',
    location: root,
    async put(key, body) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Written beside its place and renamed into it: a reader never meets half a file.
      const part = `${file}.${crypto.randomBytes(6).toString('hex')}.part`;
      let size = 0;
      const source = typeof body === 'string' || Buffer.isBuffer(body) ? Readable.from([Buffer.from(body)]) : body;
      try {
        await pipeline(
          source,
          async function* count(chunks: AsyncIterable<Buffer | string>) {
            for await (const c of chunks) {
              const b = typeof c === 'string' ? Buffer.from(c) : c;
              size += b.length;
              yield b;
            }
          },
          fs.createWriteStream(part),
        );
        await fs.promises.rename(part, file);
      } catch (err) {
        await fs.promises.rm(part, { force: true });
        throw err;
      }
      return { size };
    },
    source: (key) => fileSource(fileOf(key), key),
    async head(key) {
      const st = await fs.promises.stat(fileOf(key)).catch(() => null);
      return st?.isFile() ? { key, size: st.size, modifiedAt: st.mtime } : null;
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    async move(from, to) {
      const dest = fileOf(to);
      await fs.promises.mkdir(path.dirname(dest), { recursive: true });
      try {
        await fs.promises.rename(fileOf(from), dest);
      } catch (err) {
        throw missing(err) ? new StoredFileMissing(from) : err;
      }
    },
    async list(prefix) {
      const slash = prefix.lastIndexOf('/');
      const dirKey = slash < 0 ? '' : prefix.slice(0, slash + 1);
      const out: StoredObject[] = [];
      await walk(dirKey ? fileOf(dirKey.slice(0, -1)) : root, out, dirKey);
      return out.filter((o) => o.key.startsWith(prefix));
    },
    scratchDir: () => root,
  };
}
