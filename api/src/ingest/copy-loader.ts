// COPY batching: the records of an opened file, normalised into COPY text
// (see rows.ts) and written into risk_rows, one COPY statement per batch (the
// upload's batch size is the commit and progress granularity). The counts of
// rows and skipped duplicates are kept as the load goes, also when it fails.
import type { CopyWriter, Sql } from '../db/client.js';
import { IngestError, type CsvReader } from './csv.js';
import { COPY_COLUMNS, CopyBuffer, type rowNormalizer } from './rows.js';
import type { DigestSet } from './hash-set.js';

/** COPY text held before it is written into the batch's COPY, at most (plus one group of records). */
const COPY_CHUNK_BYTES = 4 * 1024 * 1024;

export interface BatchProgress {
  rowsProcessed: number;
  bytesProcessed: number;
  duplicatesSkipped: number;
}

export interface CopyLoaderOptions {
  sql: Sql;
  /** Rows per committed batch. */
  batchSize: number;
  /** Called once each batch's COPY has committed (in order, before the next batch commits). */
  onBatch(progress: BatchProgress): Promise<void>;
}

export class CopyLoader {
  /** Rows read and kept so far (a failed load: up to the failure). */
  rows = 0;
  /** Rows skipped as duplicates so far. */
  duplicates = 0;
  private inFlight: Promise<void> = Promise.resolve();
  /** The open COPY of the batch being loaded. */
  private copy: CopyWriter | undefined;

  constructor(private readonly opts: CopyLoaderOptions) {}

  /**
   * Loads every record of `reader`; a record whose hash is already in `seen`
   * (when given) is skipped as a duplicate. Fails with an IngestError when
   * the file has no data rows.
   */
  async load(reader: CsvReader, normalize: ReturnType<typeof rowNormalizer>, seen: DigestSet | undefined): Promise<void> {
    const { sql, batchSize, onBatch } = this.opts;
    let rows = 0;
    let dups = 0;
    // COPY text as bytes (see rows.ts), written in chunks of a few MB into
    // one COPY statement per batch: a batch's text is never held whole, so
    // memory does not grow with the batch size, and the batch size stays the
    // commit and progress granularity.
    const csv = new CopyBuffer();
    // One chunk in flight while the next rows are parsed (the database and
    // the parser work at the same time on PostgreSQL).
    let pending = 0;
    let bytesRead = 0;
    const flush = async (endOfBatch: boolean) => {
      await this.inFlight;
      const chunk = csv.take();
      const progress = endOfBatch ? { rowsProcessed: rows, bytesProcessed: bytesRead, duplicatesSkipped: dups } : undefined;
      if (endOfBatch) pending = 0;
      this.inFlight = (async () => {
        if (chunk.length) {
          this.copy ??= await sql.openCopy('risk_rows', COPY_COLUMNS);
          await this.copy.write(chunk);
        }
        if (!progress) return;
        if (this.copy) {
          const done = this.copy;
          this.copy = undefined;
          await done.end();
        }
        await onBatch(progress);
      })();
      // Do not leave a rejected promise unobserved while the next batch parses.
      this.inFlight.catch(() => {});
    };
    try {
      for await (const batch of reader.batches) {
        for (const rec of batch.records) {
          const start = csv.length;
          const hash = normalize(rec.row, rec.fields, csv);
          if (seen && !seen.addBase64(hash)) {
            csv.length = start;
            dups++;
            continue;
          }
          rows++;
          pending++;
        }
        bytesRead = batch.bytesRead;
        if (pending >= batchSize) await flush(true);
        else if (csv.length >= COPY_CHUNK_BYTES) await flush(false);
      }
      await flush(true);
      await this.inFlight;
    } finally {
      this.rows = rows;
      this.duplicates = dups;
    }
    if (rows === 0 && dups === 0) throw new IngestError('The file has a header row but no data rows.');
  }

  /** After a failure: abandons a COPY that may still be running and lets it settle. */
  async abort(): Promise<void> {
    this.copy?.abort();
    await this.inFlight.catch(() => {});
  }
}
