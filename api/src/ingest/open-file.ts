// Opening a stored upload's file: the reader for its type (.csv, .xlsx,
// .xls), the header checked and mapped to the canonical fields. A file that
// is missing, has no recognisable header or lacks a required column is
// refused (IngestError) before any row is read, and left closed.
import fs from 'node:fs';
import path from 'node:path';
import { openCsv, IngestError, type CsvReader } from './csv.js';
import { openXls, openXlsx } from './tables.js';
import { looksLikeHeader, mapHeaders, type HeaderMapping } from './headers.js';

export interface OpenedFile {
  reader: CsvReader;
  map: HeaderMapping;
}

/**
 * Opens `file` as the type its original name says. The reader hands over
 * groups of at most `groupRows` records, so only one group's parsed fields
 * are held at a time.
 */
export async function openUploadFile(file: string, originalName: string, groupRows: number): Promise<OpenedFile> {
  if (!fs.existsSync(file)) throw new IngestError('The stored file is missing; upload it again.');
  const ext = path.extname(originalName).toLowerCase();
  const reader = ext === '.xlsx' ? await openXlsx(file, groupRows) : ext === '.xls' ? await openXls(file, groupRows) : await openCsv(file, groupRows);
  try {
    if (!looksLikeHeader(reader.header)) {
      throw new IngestError(
        'The first row is not a recognisable header. An Access Risk Analysis export starts with column names such as User ID, Access Risk ID, Role/Profile and System.',
      );
    }
    const map = mapHeaders(reader.header);
    if (map.missing.length) {
      throw new IngestError(
        `Missing required column${map.missing.length > 1 ? 's' : ''}: ${map.missing.join(', ')}. No rows were loaded.` +
          (map.unknown.length ? ` Columns not recognised: ${map.unknown.slice(0, 10).join(', ')}.` : ''),
      );
    }
    return { reader, map };
  } catch (err) {
    await reader.batches.return(undefined).catch(() => {});
    throw err;
  }
}

/**
 * A generous guess of the rows in a file of this size (an export line is 400+
 * bytes, an .xlsx row ~240 compressed), to size the duplicate set up front.
 */
export function expectedRows(sizeBytes: number, originalName: string): number {
  return sizeBytes / (path.extname(originalName).toLowerCase() === '.xlsx' ? 230 : 400);
}
