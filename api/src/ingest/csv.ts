// A strict, streaming CSV reader for exports: detects UTF-8 (with or without
// BOM) and UTF-16 (Excel's 'Unicode text'), the delimiter (comma, semicolon or
// tab), handles quoted fields with embedded newlines, and fails with the row
// number on an unterminated quote, a wrong field count or invalid UTF-8.
// Memory stays bounded: records are yielded in batches as the file streams.
import fs from 'node:fs';

export class IngestError extends Error {}

export interface CsvBatch {
  /** Records (not counting the header); each with its 1-based row number in the file. */
  records: { row: number; fields: string[] }[];
  /** Bytes of the file read so far. */
  bytesRead: number;
}

export interface CsvReader {
  header: string[];
  delimiter: string;
  encoding: string;
  batches: AsyncGenerator<CsvBatch>;
}

const CHUNK = 1 << 20;

function detectEncoding(head: Buffer): { encoding: 'utf-8' | 'utf-16le' | 'utf-16be'; bom: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: 2 };
  const n = Math.min(head.length, 4096);
  let zeroOdd = 0;
  let zeroEven = 0;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b === 0) (i % 2 ? zeroOdd++ : zeroEven++);
    else if (b < 9 || (b > 13 && b < 32)) control++;
  }
  if (zeroOdd > n / 4 && zeroEven < n / 50) return { encoding: 'utf-16le', bom: 0 };
  if (zeroEven > n / 4 && zeroOdd < n / 50) return { encoding: 'utf-16be', bom: 0 };
  if (zeroOdd + zeroEven > 0 || control > n / 20) {
    throw new IngestError('This file is not a text CSV file: it contains binary data. Export the report as CSV, or upload the .xlsx file itself.');
  }
  return { encoding: 'utf-8', bom: 0 };
}

function detectDelimiter(firstLine: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let inQuotes = false;
  for (const ch of firstLine) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && ch in counts) counts[ch]!++;
  }
  const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] > 0 ? best[0] : ',';
}

/** Opens a CSV file: reads the header, then yields records in batches of `batchRows`. */
export async function openCsv(file: string, batchRows: number): Promise<CsvReader> {
  const fd = await fs.promises.open(file, 'r');
  const stat = await fd.stat();
  if (stat.size === 0) {
    await fd.close();
    throw new IngestError('The file is empty (0 bytes).');
  }
  const head = Buffer.alloc(Math.min(stat.size, 64 * 1024));
  await fd.read(head, 0, head.length, 0);
  await fd.close();
  const { encoding, bom } = (() => {
    try {
      return detectEncoding(head);
    } catch (e) {
      throw e;
    }
  })();

  const decoder = new TextDecoder(encoding, { fatal: true });
  // One buffer, reused for every chunk (the decoder keeps the bytes of a
  // character split between chunks), so reading makes no garbage buffers.
  const fh = await fs.promises.open(file, 'r');
  const chunk = Buffer.allocUnsafe(CHUNK);
  let bytesRead = bom;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await fh.close();
  };

  // Parser state, kept across chunks.
  let field = '';
  let fields: string[] = [];
  let inQuotes = false;
  let quoteRow = 0;
  let afterQuote = false;
  let row = 1;
  let delimiter = '';
  let header: string[] | null = null;
  let pendingCR = false;
  let out: { row: number; fields: string[] }[] = [];

  let text = '';
  let done = false;

  async function nextText(): Promise<boolean> {
    if (done) return false;
    const n = closed ? 0 : (await fh.read(chunk, 0, CHUNK, bytesRead)).bytesRead;
    if (n === 0) {
      done = true;
      await close();
      try {
        text = decoder.decode();
      } catch {
        throw new IngestError(`The file is not valid ${encoding.toUpperCase()} text: it ends in the middle of a character.`);
      }
      return text.length > 0;
    }
    const buf = chunk.subarray(0, n);
    try {
      text = decoder.decode(buf, { stream: true });
    } catch {
      // Find the first bad byte for the message.
      let at = bytesRead;
      if (encoding === 'utf-8') {
        const probe = new TextDecoder('utf-8', { fatal: true });
        for (let i = 0; i < buf.length; i += 4096) {
          try {
            probe.decode(buf.subarray(0, Math.min(buf.length, i + 4096)), { stream: true });
          } catch {
            at = bytesRead + i;
            break;
          }
        }
      }
      throw new IngestError(`The file is not valid ${encoding.toUpperCase()} text (a bad byte sequence near byte ${at.toLocaleString('en-US')}, around row ${row}). Save it as UTF-8 and upload it again.`);
    }
    bytesRead += buf.length;
    return true;
  }

  function endRecord() {
    fields.push(field);
    field = '';
    const rec = fields;
    fields = [];
    const thisRow = row;
    row++;
    // Blank lines are skipped.
    if (rec.length === 1 && rec[0] === '') return;
    if (!header) {
      header = rec;
      return;
    }
    if (rec.length !== header.length) {
      throw new IngestError(`Row ${thisRow} has ${rec.length} field${rec.length === 1 ? '' : 's'}, but the header has ${header.length}. Check for a missing or extra '${delimiter === '\t' ? 'tab' : delimiter}' on that row.`);
    }
    out.push({ row: thisRow, fields: rec });
  }

  function parse(s: string) {
    const d = delimiter;
    let i = 0;
    const n = s.length;
    if (pendingCR) {
      pendingCR = false;
      if (s.charCodeAt(0) === 10) i = 1;
    }
    while (i < n) {
      if (inQuotes) {
        const q = s.indexOf('"', i);
        if (q < 0) {
          field += s.slice(i);
          return;
        }
        field += s.slice(i, q);
        if (q + 1 >= n) {
          // The quote may be the first of a doubled pair; decide on the next chunk.
          afterQuote = true;
          inQuotes = false;
          i = q + 1;
          continue;
        }
        if (s[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          inQuotes = false;
          i = q + 1;
        }
        continue;
      }
      if (afterQuote) {
        afterQuote = false;
        if (s[i] === '"') {
          field += '"';
          inQuotes = true;
          i++;
          continue;
        }
      }
      const c = s.charCodeAt(i);
      if (c === 34 && field === '') {
        inQuotes = true;
        quoteRow = row;
        i++;
        continue;
      }
      if (s[i] === d) {
        fields.push(field);
        field = '';
        i++;
        continue;
      }
      if (c === 10) {
        endRecord();
        i++;
        continue;
      }
      if (c === 13) {
        endRecord();
        if (i + 1 < n) {
          if (s.charCodeAt(i + 1) === 10) i++;
        } else pendingCR = true;
        i++;
        continue;
      }
      // Plain run up to the next special character.
      let j = i + 1;
      while (j < n) {
        const cj = s.charCodeAt(j);
        if (cj === 10 || cj === 13 || s[j] === d) break;
        j++;
      }
      field += s.slice(i, j);
      i = j;
    }
  }

  // Read until the header is complete, detecting the delimiter from the first line.
  let buffered = '';
  try {
    while (!header) {
      if (!(await nextText())) break;
      buffered += text;
      if (!delimiter) {
        const nl = buffered.search(/\r|\n/);
        if (nl < 0 && !done) continue;
        delimiter = detectDelimiter(nl < 0 ? buffered : buffered.slice(0, nl));
      }
      parse(buffered);
      buffered = '';
    }
    if (done && !header) {
      if (inQuotes) throw new IngestError(`Row ${quoteRow} has a quoted field that never ends (an unterminated '"').`);
      if (field !== '' || fields.length) endRecord();
    }
    if (!header) throw new IngestError('The file has no header row.');
  } catch (e) {
    await close();
    throw e;
  }
  const headerRow: string[] = header;

  async function* batches(): AsyncGenerator<CsvBatch> {
    try {
      for (;;) {
        while (out.length < batchRows) {
          if (!(await nextText())) {
            if (inQuotes || afterQuote) {
              if (inQuotes) throw new IngestError(`Row ${quoteRow} has a quoted field that never ends (an unterminated '"').`);
              afterQuote = false;
            }
            if (field !== '' || fields.length) endRecord();
            if (out.length) yield { records: out, bytesRead };
            out = [];
            return;
          }
          parse(text);
        }
        const b = out;
        out = [];
        yield { records: b, bytesRead };
      }
    } finally {
      await close();
    }
  }

  return { header: headerRow, delimiter, encoding, batches: closing(batches(), close) };
}

/**
 * The batches of a reader, closing its file when they end, fail, or are
 * given up (return()) — also when the caller gives up before the first batch,
 * which a generator's own finally block does not see.
 */
export function closing(gen: AsyncGenerator<CsvBatch>, close: () => unknown): AsyncGenerator<CsvBatch> {
  return {
    next: () => gen.next(),
    return: async (v) => {
      await close();
      return gen.return(v);
    },
    throw: async (e) => {
      await close();
      return gen.throw(e);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
