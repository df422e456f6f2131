// The .xlsx container: the zip directory (checked against zip bombs before
// anything is parsed), its entries inflated as they stream from the file, and
// the small parts read whole.
import zlib from 'node:zlib';
import { PassThrough, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import { IngestError } from '../csv.js';
import { asSource, type ByteSource } from '../../db/storage/index.js';

/** An .xlsx whose parts inflate past this, or past this ratio, is refused. */
const MAX_INFLATED_BYTES = 8 * 1024 ** 3;
const MAX_RATIO = 200;
/** Parts read whole (workbook, relationships, styles) may not exceed this. */
const MAX_PART_BYTES = 64 * 1024 ** 2;
/** Inflated bytes handed over at a time. */
const INFLATE_CHUNK = 256 * 1024;

export const NOT_A_ZIP = 'This .xlsx file is not a valid Excel workbook (it is not a zip archive). Save it again from Excel, or export the report as CSV.';
const BAD_DIRECTORY = 'This .xlsx file is damaged: its zip directory cannot be read.';

export interface Zip {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
  size: number;
}

/** The end of a stored file read once for its zip directory (an .xlsx's directory is a few KB). */
const TAIL_BYTES = 1024 * 1024;

/**
 * A stored file as yauzl reads it: each range streamed from the store; the
 * directory at the end read once and its reads served from memory, so the
 * dozens of small reads of the directory are one request.
 */
class SourceReader extends yauzl.RandomAccessReader {
  private tail: Promise<Buffer> | undefined;
  private readonly tailStart: number;
  constructor(
    private readonly source: ByteSource,
    private readonly size: number,
  ) {
    super();
    this.tailStart = Math.max(0, size - TAIL_BYTES);
  }
  _readStreamForRange(start: number, end: number): Readable {
    if (start < this.tailStart) return this.source.read(start, end - 1);
    const out = new PassThrough();
    this.tail ??= (async () => {
      const parts: Buffer[] = [];
      for await (const c of this.source.read(this.tailStart, this.size - 1)) parts.push(c as Buffer);
      return Buffer.concat(parts);
    })();
    this.tail.then(
      (b) => out.end(b.subarray(start - this.tailStart, end - this.tailStart)),
      (err: Error) => out.destroy(err),
    );
    return out;
  }
}

/** Opens the zip directory and refuses a zip bomb (declared sizes; actual ones are checked while inflating). */
export async function openZip(file: string | ByteSource): Promise<Zip> {
  const source = asSource(file);
  const size = await source.size();
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    const done = (err: Error | null, z?: yauzl.ZipFile) => (err || !z ? reject(new IngestError(NOT_A_ZIP)) : resolve(z));
    // A file on this machine is read as yauzl reads files; a stored object by ranges.
    if (source.path) yauzl.open(source.path, { lazyEntries: true, autoClose: false }, done);
    else yauzl.fromRandomAccessReader(new SourceReader(source, size), size, { lazyEntries: true, autoClose: false }, done);
  });
  const entries = new Map<string, yauzl.Entry>();
  try {
    const total = await new Promise<number>((resolve, reject) => {
      let sum = 0;
      zip.on('entry', (e: yauzl.Entry) => {
        sum += e.uncompressedSize;
        entries.set(e.fileName, e);
        zip.readEntry();
      });
      zip.on('end', () => resolve(sum));
      zip.on('error', () => reject(new IngestError(BAD_DIRECTORY)));
      zip.readEntry();
    });
    if (total > MAX_INFLATED_BYTES || (size > 0 && total / size > MAX_RATIO && total > 100 * 1024 ** 2)) {
      throw new IngestError(
        `This .xlsx file would inflate to ${(total / 1024 ** 3).toFixed(1)} GB from ${(size / 1024 ** 2).toFixed(1)} MB; it was refused as a possible zip bomb.`,
      );
    }
  } catch (e) {
    zip.close();
    throw e;
  }
  // Later errors reach the reader through its streams.
  zip.on('error', () => {});
  return { zip, entries, size };
}

export function findEntry(z: Zip, name: string): yauzl.Entry | undefined {
  const e = z.entries.get(name);
  if (e) return e;
  const lower = name.toLowerCase();
  for (const [k, v] of z.entries) if (k.toLowerCase() === lower) return v;
  return undefined;
}

export const damaged = (what: string, why: string) =>
  new IngestError(`This .xlsx file is damaged: ${what} ${why}. Save it again from Excel, or export the report as CSV.`);

/**
 * The inflated bytes of an entry, as they stream from the file, with the
 * compressed bytes read so far. The inflated size is held to what the zip
 * directory declares (the zip-bomb check relies on it).
 */
export async function* inflateEntry(z: Zip, e: yauzl.Entry, what: string, progress?: (compressedBytes: number) => void): AsyncGenerator<Buffer> {
  if (e.isEncrypted()) throw new IngestError('This .xlsx file is encrypted (password-protected). Save it without a password, or export the report as CSV.');
  if (e.compressionMethod !== 0 && e.compressionMethod !== 8) throw damaged(what, `uses a compression method Excel does not write (${e.compressionMethod})`);
  let raw: Readable;
  try {
    raw = await z.zip.openReadStreamPromise(e, { decodeFileData: false });
  } catch (err) {
    throw damaged(what, `cannot be read (${(err as Error).message})`);
  }
  let compressed = 0;
  let source: AsyncIterable<Buffer> = raw;
  let inflate: zlib.InflateRaw | undefined;
  if (e.compressionMethod === 8) {
    // Up to a few chunks inflated ahead (zlib works on another thread meanwhile).
    inflate = zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK, readableHighWaterMark: 4 * INFLATE_CHUNK } as zlib.ZlibOptions);
    raw.on('data', (c: Buffer) => (compressed += c.length));
    raw.on('error', (err) => inflate!.destroy(err));
    raw.pipe(inflate);
    source = inflate;
  }
  let inflated = 0;
  try {
    for await (const chunk of source) {
      inflated += chunk.length;
      if (!inflate) compressed = inflated;
      if (inflated > e.uncompressedSize)
        throw damaged(what, `inflates to more than the ${e.uncompressedSize.toLocaleString('en-US')} bytes its zip directory declares`);
      progress?.(compressed);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof IngestError) throw err;
    throw damaged(what, `cannot be decompressed (${(err as Error).message})`);
  } finally {
    raw.unpipe();
    raw.destroy();
    inflate?.destroy();
  }
  if (inflated !== e.uncompressedSize) throw damaged(what, `is shorter than its zip directory declares (the file may be truncated)`);
}

/** A whole, small part as text. */
export async function readPart(z: Zip, name: string): Promise<string | undefined> {
  const e = findEntry(z, name);
  if (!e) return undefined;
  if (e.uncompressedSize > MAX_PART_BYTES)
    throw new IngestError(`This .xlsx file cannot be read: its part ${name} is larger than ${MAX_PART_BYTES / 1024 ** 2} MB.`);
  const chunks: Buffer[] = [];
  for await (const c of inflateEntry(z, e, `its part ${name}`)) chunks.push(c);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw damaged(`its part ${name}`, 'is not valid UTF-8 text');
  }
}
