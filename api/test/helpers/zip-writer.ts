// A zip archive written as a stream to a file (parts deflated as they are
// produced), so a test can build a workbook of hundreds of MB inflated
// without holding it: each part is text, or a generator of text chunks.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { once } from 'node:events';

export type ZipPart = string | (() => Iterable<string>);

export async function writeZip(file: string, parts: Record<string, ZipPart>): Promise<void> {
  const fd = fs.openSync(file, 'w');
  let offset = 0;
  const write = (b: Buffer, at = offset) => {
    fs.writeSync(fd, b, 0, b.length, at);
    if (at === offset) offset += b.length;
  };
  const centrals: Buffer[] = [];
  try {
    for (const [name, part] of Object.entries(parts)) {
      const nameBuf = Buffer.from(name);
      const headerAt = offset;
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(8, 8);
      local.writeUInt16LE(nameBuf.length, 26);
      write(local);
      write(nameBuf);
      let crc = 0;
      let size = 0;
      const start = offset;
      const deflate = zlib.createDeflateRaw();
      deflate.on('data', (c: Buffer) => write(c));
      const done = once(deflate, 'end');
      for (const text of typeof part === 'string' ? [part] : part()) {
        const b = Buffer.from(text, 'utf8');
        crc = zlib.crc32(b, crc);
        size += b.length;
        if (!deflate.write(b)) await once(deflate, 'drain');
      }
      deflate.end();
      await done;
      const compressed = offset - start;
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(compressed, 18);
      local.writeUInt32LE(size, 22);
      write(local, headerAt);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(8, 10);
      central.writeUInt32LE(crc, 16);
      central.writeUInt32LE(compressed, 20);
      central.writeUInt32LE(size, 24);
      central.writeUInt16LE(nameBuf.length, 28);
      central.writeUInt32LE(headerAt, 42);
      centrals.push(central, nameBuf);
    }
    const cdAt = offset;
    const cd = Buffer.concat(centrals);
    write(cd);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    const count = Object.keys(parts).length;
    end.writeUInt16LE(count, 8);
    end.writeUInt16LE(count, 10);
    end.writeUInt32LE(cd.length, 12);
    end.writeUInt32LE(cdAt, 16);
    write(end);
  } finally {
    fs.closeSync(fd);
  }
}
