// Legacy .xls workbooks as tables, through SheetJS, in a child process with
// its own heap (SheetJS reads the whole workbook, so those files are capped,
// and a workbook too large for that heap fails its upload, not the server).
// Yields the same batches as the CSV reader. A preview asks for its first
// rows only (maxRows): the file is still read (its container must be), but
// only those rows of each sheet are built, so memory stays small.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { asSource, type ByteSource } from '../../db/storage/index.js';
import { fork, type ChildProcess } from 'node:child_process';
import { IngestError, closing, type CsvBatch, type CsvReader, type LayoutChoice } from '../csv.js';
import { HEADER_MIN_SCORE, findHeaderRow, headerScore } from '../headers.js';

const MAX_XLS_BYTES = 100 * 1024 ** 2;

/**
 * The heap of the child process that reads an .xls. SheetJS holds the whole
 * workbook: 20,000 rows of 35 columns (a 25 MB file) take 300-400 MB at the
 * peak, so a full sheet (65,536 rows, the format's limit) needs about 1.2 GB.
 */
const XLS_HEAP_MB = 1536;

/**
 * How long the child may work on one step (reading the workbook, or making
 * one batch) before it is killed and the file refused. A crafted workbook can
 * make a parser spin (a catastrophic regular expression, a loop over a forged
 * record count); this bounds the time it can hold a core. Time the child
 * spends waiting for the server to ask for the next batch does not count.
 * XLS_STEP_LIMIT_MS in the environment overrides it.
 */
const XLS_STEP_LIMIT_MS = 120_000;

/** How much of the child's stderr is kept (its end: V8's fatal error is there). */
const XLS_STDERR_CHARS = 16 * 1024;

/** What V8 prints when a heap runs out ("... Allocation failed - JavaScript heap out of memory"). */
const OUT_OF_MEMORY = /JavaScript heap out of memory|Allocation failed/;

/**
 * Starts the .xls reader (xls-worker.mjs) as a child process of plain node.
 * A process of its own, not a worker thread: V8 applies the server's heap
 * flags (`npm start` runs with --max-old-space-size=192) to every isolate of
 * the process, over a worker's resourceLimits, whereas a child gets its own
 * flags, so it has the heap SheetJS needs while the server keeps its cap; and
 * a workbook too large for that heap ends the child (V8 aborts on running out
 * of heap), never the server.
 * Nothing of the server's is inherited: execArgv is only the heap limit (no
 * loader flags such as tsx's: the reader is JavaScript) and NODE_OPTIONS is
 * left out. Messages use the advanced (structured clone) serialization, so a
 * batch is not turned into JSON; stderr is piped to tell a heap out of memory
 * from other failures; stdin and stdout are not used.
 */
function startXlsChild(args: { file: string; size: number; batchRows: number; maxRows: number }, heapMb: number): ChildProcess {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return fork(new URL('./xls-worker.mjs', import.meta.url), [args.file, String(args.size), String(args.batchRows), String(args.maxRows)], {
    execArgv: [`--max-old-space-size=${heapMb}`],
    env,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

/** A stored object copied to a temporary file, and how to remove it. */
async function localCopy(source: ByteSource): Promise<{ file: string; drop: () => Promise<void> }> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'xls-'));
  const drop = () => fs.promises.rm(dir, { recursive: true, force: true });
  const file = path.join(dir, 'workbook.xls');
  try {
    await pipeline(source.read(), fs.createWriteStream(file));
  } catch (err) {
    await drop();
    throw err;
  }
  return { file, drop };
}

type XlsMessage =
  | { type: 'sheets'; sheets: { name: string; rows: { rowNo: number; cells: string[] }[] }[] }
  | { type: 'header'; header: string[]; headerRow: number }
  | { type: 'batch'; records: CsvBatch['records']; bytesRead: number }
  | { type: 'end' }
  | { type: 'error'; message: string };

/**
 * A legacy .xls, read by SheetJS in a child process (xls-worker.mjs, see
 * startXlsChild) with its own heap (XLS_HEAP_MB; XLS_WORKER_HEAP_MB in the
 * environment overrides it): a workbook too large for that, or one SheetJS
 * fails on, fails its upload, not the server. Batches come one at a time, the
 * next asked for as one is handed over, so the server holds at most two.
 * Closing the reader (the upload done, failed or given up) kills the child and
 * waits until it has gone; the child also exits when the server does (its IPC
 * channel closes).
 */
export async function openXls(input: string | ByteSource, batchRows: number, at: LayoutChoice = {}, maxRows = 0): Promise<CsvReader> {
  const source = asSource(input);
  const size = await source.size();
  if (size === 0) throw new IngestError('The file is empty (0 bytes).');
  if (size > MAX_XLS_BYTES) {
    throw new IngestError('Legacy .xls files over 100 MB cannot be loaded (the format must be read whole); save it as .xlsx or CSV.');
  }
  const heapMb = Number(process.env.XLS_WORKER_HEAP_MB) || XLS_HEAP_MB;
  const stepLimitMs = Number(process.env.XLS_STEP_LIMIT_MS) || XLS_STEP_LIMIT_MS;
  // The child opens a file on this machine: a stored object is copied to a temporary one (at most 100 MB) while it reads.
  const local = source.path ? { file: source.path, drop: async () => {} } : await localCopy(source);
  const child = startXlsChild({ file: local.file, size, batchRows, maxRows }, heapMb);
  const inbox: XlsMessage[] = [];
  let failure: IngestError | undefined;
  let wake: (() => void) | undefined;
  let closed = false;
  let stderr = '';
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  // Settles once the child has gone (or was never started): close() waits on it.
  const gone = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => {
      if (child.pid === undefined) resolve();
    });
  });
  child.on('message', (m: XlsMessage) => {
    inbox.push(m);
    notify();
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-XLS_STDERR_CHARS);
  });
  // Listened to for the child's whole life: an unheard 'error' would be thrown in the server.
  child.on('error', (e: Error) => {
    failure ??= new IngestError(`This .xls file could not be read: ${e.message}`);
    notify();
  });
  // 'close' comes after the child has exited, its stderr has ended and every
  // message it sent has been delivered.
  child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
    failure ??= OUT_OF_MEMORY.test(stderr)
      ? new IngestError(
          `This .xls file is too large to read: the legacy format is read whole, and this one needs more than the ${heapMb} MB set aside for it. Save it as .xlsx or CSV (those are read as a stream, at any size).`,
        )
      : new IngestError(`This .xls file could not be read: its reader stopped (${signal ? `signal ${signal}` : `exit code ${code}`}).`);
    notify();
  });
  const close = async () => {
    if (!closed) {
      closed = true;
      failure ??= new IngestError('The .xls reader was closed.');
      notify();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await gone;
    await local.drop();
  };
  /** Asks for the next message; a child that has gone is reported by 'close'. */
  const next = () => {
    if (child.connected) child.send('next', () => {});
  };
  /** Stops a child that has worked on one step for longer than the limit. */
  const overrun = () => {
    failure ??= new IngestError(
      `This .xls file took longer than ${Math.round(stepLimitMs / 1000)} s to read, so it was refused. Save it as .xlsx or CSV (those are read as a stream).`,
    );
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    notify();
  };
  const receive = async (): Promise<XlsMessage> => {
    // Every wait here is for a step the child was asked to do.
    const limit = setTimeout(overrun, stepLimitMs);
    try {
      for (;;) {
        const m = inbox.shift();
        if (m) {
          if (m.type === 'error') throw new IngestError(m.message);
          return m;
        }
        if (failure) throw failure;
        await new Promise<void>((r) => (wake = r));
      }
    } finally {
      clearTimeout(limit);
    }
  };

  let header: string[];
  let headerRow: number;
  let sheet: string;
  let sheets: string[];
  try {
    const heads = await receive();
    if (heads.type !== 'sheets') throw new IngestError('This .xls file could not be read: its reader gave no sheets.');
    // The sheet chosen, else the one whose header is recognisable, else the
    // first; the header row chosen, else the one found in its first rows.
    const choices = heads.sheets.map((h) => {
      const i = findHeaderRow(h.rows.map((r) => r.cells));
      return { headerRow: h.rows[i]?.rowNo ?? 1, score: h.rows[i] ? headerScore(h.rows[i].cells) : 0 };
    });
    sheets = heads.sheets.map((h) => h.name);
    const chosen =
      at.sheet === undefined
        ? Math.max(
            0,
            choices.findIndex((c) => c.score >= HEADER_MIN_SCORE),
          )
        : sheets.indexOf(at.sheet);
    if (chosen < 0) throw new IngestError(`The workbook has no sheet '${at.sheet}'; its sheets are ${sheets.map((x) => `'${x}'`).join(', ')}.`);
    sheet = sheets[chosen] ?? '';
    if (child.connected) child.send({ sheet: chosen, headerRow: at.headerRow ?? choices[chosen]?.headerRow ?? 1 }, () => {});
    const first = await receive();
    if (first.type !== 'header') throw new IngestError('This .xls file could not be read: its reader gave no header.');
    header = first.header;
    headerRow = first.headerRow;
    next();
  } catch (e) {
    await close();
    throw e;
  }
  async function* batches(): AsyncGenerator<CsvBatch> {
    try {
      for (;;) {
        const m = await receive();
        if (m.type === 'end') break;
        if (m.type !== 'batch') throw new IngestError('This .xls file could not be read: its reader gave an unexpected message.');
        // The next batch is read while this one is loaded.
        next();
        yield { records: m.records, bytesRead: m.bytesRead };
      }
    } finally {
      await close();
    }
  }
  return { header, delimiter: '', encoding: 'xls', headerRow, sheet, sheets, batches: closing(batches(), close) };
}
