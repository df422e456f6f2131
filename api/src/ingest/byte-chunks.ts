// A stored file's bytes as the CSV reader takes them: its first bytes (to
// detect the encoding), then the rest as a stream of large chunks, whatever
// the size of the pieces the store answers in.
import type { ByteSource } from '../db/storage/index.js';

/** The chunk the parser works on at a time. */
export const CHUNK = 1 << 20;

/** The first `n` bytes of a source. */
export async function headOf(src: ByteSource, n: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of src.read(0, n - 1)) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/**
 * The chunks of a stream, small ones (a network store answers in pieces of a
 * few KB) joined up to about CHUNK, so the parser works on large chunks
 * whatever the store; chunks of CHUNK pass as they are.
 */
async function* joined(stream: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const c of stream) {
    if (!held && c.length >= CHUNK) {
      yield c;
      continue;
    }
    parts.push(c);
    held += c.length;
    if (held >= CHUNK) {
      yield Buffer.concat(parts, held);
      parts = [];
      held = 0;
    }
  }
  if (held) yield Buffer.concat(parts, held);
}

/** The file's bytes after its byte order mark, in chunks of about CHUNK, and how to stop reading them. */
export function bodyOf(src: ByteSource, bom: number, size: number) {
  const stream = bom < size ? src.read(bom) : null;
  const body = joined(stream ?? []);
  const stop = async () => {
    stream?.destroy();
    await body.return(undefined).catch(() => {});
  };
  return { body, stop };
}
