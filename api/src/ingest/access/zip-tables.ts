// The tables of a .zip (a rule set, a system's access extract): each entry
// named by its file name without folder and extension, case-insensitive
// ('USR02', 'usr02.csv' and 'Usr02.TXT' are one table). An entry is copied
// out to a temporary file as it inflates (bounded memory at any size) and
// read by the product's readers, header on line 1: CSV (comma, semicolon or
// tab; UTF-8 or Windows-1252, ingest/csv.ts), SE16's 'unconverted' list
// (pipe-separated columns between dashed lines, turned into tab-separated
// text first) or an XLSX download, told apart by their first bytes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import readline from 'node:readline';
import { IngestError, openCsv, type CsvReader } from '../csv.js';
import { detectEncoding } from '../encoding.js';
import { NOT_A_ZIP, findEntry, inflateEntry, openZip, type Zip } from '../xlsx/zip.js';
import { openXlsx } from '../tables.js';
import type { ByteSource } from '../../db/storage/index.js';

export interface ZipTable {
  /** The entry's name in the zip (as messages name it). */
  fileName: string;
  /** Inflated size in bytes. */
  size: number;
}

export interface ZipTables {
  /** The tables found, by lower-case name. */
  tables: Map<string, ZipTable>;
  /** Opens a table: its header (line 1) and records in batches, each with its line. */
  open(name: string, batchRows: number): Promise<CsvReader>;
  /** A table's header (line 1), read from the start of its file only (an XLSX is read whole). */
  header(name: string): Promise<string[]>;
  close(): Promise<void>;
}

/** A table's name from an entry's file name: no folder, no .csv/.txt/.xlsx, lower case. */
export function tableName(fileName: string): string {
  return path.posix
    .basename(fileName.replace(/\\/g, '/'))
    .replace(/\.(csv|txt|xlsx)$/i, '')
    .toLowerCase();
}

/** Opens the zip's directory; `what` names the archive in messages ('The rule set'). */
export async function openZipTables(file: string | ByteSource, what: string): Promise<ZipTables> {
  let z: Zip;
  try {
    z = await openZip(file);
  } catch (e) {
    // The workbook reader's words (Excel, .xlsx) would mislead someone loading SAP tables.
    if (e instanceof IngestError && e.message === NOT_A_ZIP)
      throw new IngestError(`${what} must be a .zip archive of CSV files: this file is not a zip archive.`);
    if (e instanceof IngestError) throw new IngestError(`${what} must be a .zip archive of CSV files: ${e.message.replace(/^This \.xlsx file/, 'this file')}`);
    throw e;
  }
  const tables = new Map<string, ZipTable>();
  for (const [fileName, e] of z.entries) {
    if (fileName.endsWith('/') || /(^|\/)(__MACOSX|\.)/.test(fileName)) continue;
    const name = tableName(fileName);
    const earlier = tables.get(name);
    if (earlier) throw new IngestError(`${what} holds two files for the table '${name}': ${earlier.fileName} and ${fileName}.`);
    tables.set(name, { fileName, size: e.uncompressedSize });
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'access-zip-'));
  /**
   * Copies a table out (its first `limit` bytes, cut after the last whole
   * line, when the header is all that is wanted) and opens it with the reader
   * its first bytes call for.
   */
  async function openTable(name: string, batchRows: number, limit: number): Promise<CsvReader> {
    const t = tables.get(name);
    const entry = t && findEntry(z, t.fileName);
    if (!t || !entry) throw new IngestError(`${what} has no file '${name}'.`);
    const out = path.join(dir, crypto.randomUUID());
    try {
      await pipeline(Readable.from(limited(inflateEntry(z, entry, t.fileName), limit)), fs.createWriteStream(out));
    } catch (e) {
      if (e instanceof IngestError)
        throw new IngestError(
          `${t.fileName}: ${e.message.replace(/^This \.xlsx file is damaged: /, '').replace(/ Save it again from Excel, or export the report as CSV\.$/, '')}`,
        );
      throw e;
    }
    try {
      const kind = await sniff(out);
      if (kind === 'xlsx') {
        // A workbook is a zip: it can only be read whole.
        if (Number.isFinite(limit)) {
          await fs.promises.rm(out, { force: true });
          return openTable(name, batchRows, Infinity);
        }
        return await openXlsx(out, batchRows, { headerRow: 1 });
      }
      if (kind === 'se16') {
        const tsv = `${out}.tsv`;
        await se16ToTsv(out, tsv);
        return await openCsv(tsv, batchRows, { headerRow: 1 });
      }
      return await openCsv(out, batchRows, { headerRow: 1 });
    } catch (e) {
      if (e instanceof IngestError) throw new IngestError(`${t.fileName}: ${e.message}`);
      throw e;
    }
  }
  return {
    tables,
    async open(name, batchRows) {
      return openTable(name, batchRows, Infinity);
    },
    async header(name) {
      const reader = await openTable(name, 1, HEAD_BYTES);
      await reader.batches.return(undefined);
      return reader.header;
    },
    async close() {
      z.zip.close();
      await fs.promises.rm(dir, { recursive: true, force: true });
    },
  };
}

/** What is read of a table for its header: its first lines, whatever its size. */
const HEAD_BYTES = 256 * 1024;

/** The chunks of `source`; with a `limit`, its first bytes up to it, cut after the last line feed when cut (no half line, no half character). */
async function* limited(source: AsyncGenerator<Buffer>, limit: number): AsyncGenerator<Buffer> {
  if (!Number.isFinite(limit)) return yield* source;
  const kept: Buffer[] = [];
  let n = 0;
  for await (const c of source) {
    kept.push(c);
    n += c.length;
    if (n > limit) break;
  }
  const all = Buffer.concat(kept);
  if (all.length <= limit) return yield all;
  const lf = all.subarray(0, limit).lastIndexOf(10);
  yield all.subarray(0, lf + 1);
}

/** A ruled line of an SE16 list: dashes, with '|' or '+' where columns meet, nothing else. */
const RULE = /^\s*[-|+]+\s*$/;

/** xlsx (a zip: 'PK'), SE16's unconverted list (a ruled line of dashes and a line of '|'-separated cells), else CSV. */
async function sniff(file: string): Promise<'xlsx' | 'se16' | 'csv'> {
  const fd = await fs.promises.open(file, 'r');
  const head = Buffer.alloc(16384);
  const { bytesRead } = await fd.read(head, 0, head.length, 0);
  await fd.close();
  if (bytesRead >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'xlsx';
  const lines = decodeHead(head.subarray(0, bytesRead)).split(/\r?\n/);
  const dashed = lines.some((l) => RULE.test(l) && l.includes('-----'));
  const piped = lines.some((l) => /^\s*\|.*\|\s*$/.test(l) && !RULE.test(l));
  return dashed && piped ? 'se16' : 'csv';
}

/** The first bytes of a file as text, in the encoding they are in (SAP GUI may save a list as UTF-16). */
function decodeHead(head: Buffer): string {
  const { label, bom } = detectEncoding(head);
  return label === 'windows-1252' ? head.toString('latin1') : new TextDecoder(label).decode(head.subarray(bom));
}

/** A file's text as it streams, decoded from `label` (a character split between chunks is kept for the next). */
async function* decoded(file: string, label: string): AsyncGenerator<string> {
  const decoder = new TextDecoder(label);
  for await (const chunk of fs.createReadStream(file)) yield decoder.decode(chunk as Buffer, { stream: true });
  yield decoder.decode();
}

const tsvCell = (s: string) => (/["\t\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * SE16's unconverted list as tab-separated text, line for line with its
 * header on line 1: the title (and date or other) lines and the ruled
 * lines (dashes, with '|' or '+' where columns meet) are dropped, the first '|'
 * line is the header (a header repeated at a page break is dropped), cells
 * are trimmed. Windows-1252 text stays so (the CSV reader detects it); UTF-8
 * and UTF-16 (SAP GUI's Unicode download) are written as UTF-8.
 */
async function se16ToTsv(from: string, to: string): Promise<void> {
  const head = Buffer.alloc(1024 * 1024);
  const fd = await fs.promises.open(from, 'r');
  const { bytesRead } = await fd.read(head, 0, head.length, 0);
  await fd.close();
  // Windows-1252 read as latin1 and written back as latin1 keeps its bytes; UTF-8 and UTF-16 are written as UTF-8.
  const { label } = detectEncoding(head.subarray(0, bytesRead));
  const encoding: BufferEncoding = label === 'windows-1252' ? 'latin1' : 'utf8';
  const input = label === 'windows-1252' ? fs.createReadStream(from, { encoding }) : Readable.from(decoded(from, label));
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  const out = fs.createWriteStream(to, { encoding });
  let header: string | undefined;
  async function* converted() {
    for await (const line of lines) {
      const l = line.replace(/^\uFEFF/, '').trimStart();
      // Title, date and other lines above the list, and the ruled lines around and inside it.
      if (!l.startsWith('|') || RULE.test(l)) continue;
      const row = l.trimEnd();
      const cells = row
        .split('|')
        .slice(1, row.endsWith('|') ? -1 : undefined)
        .map((c) => c.trim());
      const text = cells.map(tsvCell).join('\t');
      if (header === undefined) header = text;
      else if (text === header) continue;
      yield text + '\n';
    }
  }
  await pipeline(Readable.from(converted()), out);
  if (header === undefined) throw new IngestError('The SE16 list has no line of columns.');
}
