// A strict, streaming CSV reader for exports: detects UTF-8 (with or without
// BOM) and UTF-16 (Excel's 'Unicode text'), the delimiter (comma, semicolon or
// tab), handles quoted fields with embedded newlines, and fails with the row
// number on an unterminated quote, a wrong field count or invalid UTF-8.
// Memory stays bounded: records are yielded in groups as the file streams,
// and a cell, a row and a group are held to the budgets of limits.ts.
import { asSource, type ByteSource } from '../db/storage/index.js';
import { CHUNK, bodyOf, headOf } from './byte-chunks.js';
import { HEADER_MIN_SCORE, HEADER_SEARCH_ROWS, headerScore } from './headers.js';
import { GROUP_CELLS, GROUP_CHARS, MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROW_CHARS } from './limits.js';
import { IngestError, overLimit } from './errors.js';
import { detectEncoding } from './encoding.js';

export { IngestError, OverLimitError, overLimit } from './errors.js';

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
  /** The row (1-based) holding the header: rows above it (a title, report parameters) are skipped. */
  headerRow: number;
  /** Workbooks: the sheet read, and every sheet's name. */
  sheet?: string;
  sheets?: string[];
  batches: AsyncGenerator<CsvBatch>;
}

/**
 * Where the header is, as an administrator chose it in the preview (else
 * found): the sheet of a workbook, by name, and the row (1-based, as the
 * layout numbers it) holding the header; rows above it are skipped.
 */
export interface LayoutChoice {
  sheet?: string;
  headerRow?: number;
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

const DELIMITERS = [',', ';', '\t', '|'];

/** How many fields a line has (delimiters inside quotes do not count), for guessing only. */
function fieldCount(line: string, d: string): number {
  let n = 1;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === d) n++;
  }
  return n;
}

/** A line's fields split naively (quotes dropped), for guessing only. */
function roughFields(line: string, d: string): string[] {
  return line.split(d).map((f) => f.trim().replace(/^"|"$/g, ''));
}

/**
 * The delimiter and how many known columns the header names, from the first
 * lines: the delimiter under which some line reads as the best header (a title
 * or parameter lines above it do not matter). With no recognisable header
 * (another tool's report), the delimiter that splits the most lines into the
 * same number of fields (3 or more), and the first line so split is the
 * header (`headerLine`, 0-based; title lines above it are skipped); else the
 * most frequent delimiter of the first non-blank line.
 */
export function detectLayout(text: string): { delimiter: string; score: number; headerLine?: number } {
  const lines = text.split(/\r\n|\n|\r/, HEADER_SEARCH_ROWS + 1).slice(0, HEADER_SEARCH_ROWS);
  let best = { delimiter: '', score: 0 };
  for (const d of DELIMITERS) {
    for (const line of lines) {
      if (!line.includes(d)) continue;
      const score = headerScore(roughFields(line, d));
      if (score > best.score) best = { delimiter: d, score };
    }
  }
  if (best.score >= 2) return best;
  let shape = { delimiter: '', lines: 0, headerLine: 0 };
  for (const d of DELIMITERS) {
    const widths = lines.map((l) => (l.trim() === '' ? 0 : fieldCount(l, d)));
    const counts = new Map<number, number>();
    for (const w of widths) if (w >= 3) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const [w, n] of counts) if (n > shape.lines) shape = { delimiter: d, lines: n, headerLine: widths.indexOf(w) };
  }
  if (shape.lines >= 2) return { delimiter: shape.delimiter, score: 0, headerLine: shape.headerLine };
  return { delimiter: detectDelimiter(lines.find((l) => l.trim() !== '') ?? ''), score: 0 };
}

/** Opens a CSV file (a path, or a stored file's source): reads the header, then yields records in batches of `batchRows`. */
export async function openCsv(file: string | ByteSource, batchRows: number, at: LayoutChoice = {}): Promise<CsvReader> {
  if (at.sheet !== undefined) throw new IngestError(`A CSV file has no sheets: it cannot be read from sheet '${at.sheet}'.`);
  let chosenRow = at.headerRow ?? 0;
  const src = asSource(file);
  const size = await src.size();
  if (size === 0) throw new IngestError('The file is empty (0 bytes).');
  const head = await headOf(src, Math.min(size, 1024 * 1024));
  const { label, name: encoding, bom } = detectEncoding(head);

  const decoder = new TextDecoder(label, { fatal: true });
  const { body, stop } = bodyOf(src, bom, size);
  let bytesRead = bom;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await stop();
  };

  // Parser state, kept across chunks.
  let field = '';
  let fields: string[] = [];
  /** Characters of the row's finished fields (its budget is MAX_ROW_CHARS). */
  let rowChars = 0;
  let inQuotes = false;
  let quoteRow = 0;
  let afterQuote = false;
  let row = 1;
  let delimiter = '';
  let header: string[] | null = null;
  let headerRow = 0;
  /** Known columns a row must name to be the header (from the first lines); 0: the first non-blank row. */
  let headerScoreNeeded = 0;
  let skipped = 0;
  let pendingCR = false;
  let out: { row: number; fields: string[] }[] = [];
  /** A bad row met while the header was read, thrown after the rows above it. */
  let deferred: IngestError | undefined;

  let text = '';
  let done = false;

  async function nextText(): Promise<boolean> {
    if (done) return false;
    const next = closed ? undefined : await body.next();
    if (!next || next.done) {
      done = true;
      await close();
      try {
        text = decoder.decode();
      } catch {
        throw new IngestError(`The file is not valid ${encoding} text: it ends in the middle of a character.`);
      }
      return text.length > 0;
    }
    const buf = next.value;
    try {
      text = decoder.decode(buf, { stream: true });
    } catch {
      // Find the first bad byte for the message.
      let at = bytesRead;
      if (label === 'utf-8') {
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
      throw new IngestError(
        `The file is not valid ${label.toUpperCase()} text (a bad byte sequence near byte ${at.toLocaleString('en-US')}, around row ${row}). Save it as UTF-8 and upload it again.`,
      );
    }
    bytesRead += buf.length;
    return true;
  }

  /** The field or row being read is over its budget (lengths checked where a field ends, and per chunk). */
  function overBudget(): never {
    if (field.length > MAX_CELL_CHARS) throw overLimit('cell', row, fields.length, header ?? undefined);
    if (rowChars + field.length > MAX_ROW_CHARS) throw overLimit('row', row, fields.length, header ?? undefined);
    throw overLimit('columns', row, fields.length, header ?? undefined);
  }

  function endRecord() {
    if (field.length > MAX_CELL_CHARS || rowChars + field.length > MAX_ROW_CHARS) overBudget();
    fields.push(field);
    field = '';
    rowChars = 0;
    const rec = fields;
    fields = [];
    const thisRow = row;
    row++;
    // Blank lines are skipped.
    if (rec.length === 1 && rec[0] === '') return;
    if (!header) {
      // Title lines and report parameters above the header are skipped (all rows above a chosen header row).
      if (thisRow < chosenRow) return;
      if (!chosenRow && headerScoreNeeded && headerScore(rec) < headerScoreNeeded && ++skipped < HEADER_SEARCH_ROWS) return;
      header = rec;
      headerRow = thisRow;
      return;
    }
    if (rec.length !== header.length) {
      throw new IngestError(
        `Row ${thisRow} has ${rec.length} field${rec.length === 1 ? '' : 's'}, but the header has ${header.length}. Check for a missing or extra '${delimiter === '\t' ? 'tab' : delimiter}' on that row.`,
      );
    }
    out.push({ row: thisRow, fields: rec });
  }

  /** Parses a chunk; the field it ends in (a quoted one may span chunks) is held to its budget too. */
  function parse(s: string) {
    parseChunk(s);
    if (field.length > MAX_CELL_CHARS || rowChars + field.length > MAX_ROW_CHARS) overBudget();
  }

  function parseChunk(s: string) {
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
        if (field.length > MAX_CELL_CHARS || (rowChars += field.length) > MAX_ROW_CHARS || fields.length >= MAX_COLUMNS - 1) {
          rowChars -= field.length;
          overBudget();
        }
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
      const more = await nextText();
      if (more) buffered += text;
      if (!delimiter) {
        // The first lines: a title and report parameters may come before the header.
        let lines = 0;
        let at = 0;
        while (lines < HEADER_SEARCH_ROWS && at >= 0) {
          at = buffered.indexOf('\n', at + 1);
          lines++;
        }
        if (at < 0 && more && buffered.length < CHUNK * 4) continue;
        const found = detectLayout(buffered);
        delimiter = found.delimiter;
        headerScoreNeeded = Math.min(found.score, HEADER_MIN_SCORE);
        // Another tool's header under title lines: the rows above it are skipped as a chosen row's are.
        if (!chosenRow && found.headerLine) chosenRow = found.headerLine + 1;
      }
      if (buffered) {
        try {
          parse(buffered);
        } catch (e) {
          // A bad row after the header: the rows before it are handed over first (a preview shows them).
          if (!header || !(e instanceof IngestError)) throw e;
          deferred = e;
        }
      }
      buffered = '';
      if (!more) break;
    }
    if (done && !header) {
      if (inQuotes) throw new IngestError(`Row ${quoteRow} has a quoted field that never ends (an unterminated '"').`);
      if (field !== '' || fields.length) endRecord();
    }
    if (!header) throw new IngestError(chosenRow ? `The file has no row ${chosenRow} or below it to read the header from.` : 'The file has no header row.');
  } catch (e) {
    await close();
    throw e;
  }
  const headerFields: string[] = header;

  async function* batches(): AsyncGenerator<CsvBatch> {
    // A group ends at batchRows records, or at GROUP_CELLS cells or GROUP_CHARS characters read.
    const groupRows = Math.min(batchRows, Math.max(1, Math.floor(GROUP_CELLS / headerFields.length)));
    try {
      if (deferred) {
        if (out.length) yield { records: out, bytesRead };
        throw deferred;
      }
      for (;;) {
        let chars = 0;
        while (out.length < groupRows && chars < GROUP_CHARS) {
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
          chars += text.length;
        }
        const b = out;
        out = [];
        yield { records: b, bytesRead };
      }
    } finally {
      await close();
    }
  }

  return { header: headerFields, delimiter, encoding, headerRow, batches: closing(batches(), close) };
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
