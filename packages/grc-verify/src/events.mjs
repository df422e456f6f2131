// @ts-check
// audit-events.jsonl: the period's events of the installation's audit chain
// in chain order, ending with the period's close, one event a line, each with
// `prevHash` and `hash`. What makes an event's hash and a link is chain.mjs's
// (the same canonical form the database hashes); here the lines are read in
// batches (flat memory for a period of millions of decisions) and walked:
// every event's hash is recomputed, the order is checked, and the link to the
// event before wherever that event is in the file too. The file is a
// selection (other periods' events stand between the period's), so a gap is
// not a break: the gaps are counted and shown, and an event taken out of the
// file shows in its SHA-256 in the signed manifest. The last event must be the
// period's close whose hash the manifest signed as `chainHead`, so no event
// can be cut off the end.
import readline from 'node:readline';
import { verifyChain } from './chain.mjs';
import { VerifyFailure } from './failure.mjs';

export const EVENTS = 'audit-events.jsonl';
/** The action of a period's close event (services/review/periods.ts). */
const CLOSE_ACTION = 'period.closed';
/** Events handed to verifyChain at a time; each batch links to the last event of the one before. */
const BATCH = 5000;

/**
 * @typedef {import('./chain.mjs').ChainEvent} ChainEvent
 */

/**
 * @param {string} message
 * @param {import('./failure.mjs').FailureAt} [at]
 */
const fail = (message, at = {}) => new VerifyFailure('chain', message, { file: EVENTS, ...at });

/**
 * Reads the events, one JSON object a line (a last empty line allowed), each with its line number.
 * @param {import('node:stream').Readable} stream
 * @returns {AsyncGenerator<{ event: ChainEvent, line: number }>}
 */
async function* readEvents(stream) {
  let line = 0;
  let blankAt = 0;
  for await (const text of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
    line++;
    if (blankAt) throw fail(`line ${blankAt} is empty`, { line: blankAt });
    if (text === '') {
      blankAt = line;
      continue;
    }
    /** @type {unknown} */
    let event;
    try {
      event = JSON.parse(text);
    } catch (e) {
      throw fail(`line ${line} is not JSON: ${e instanceof Error ? e.message : String(e)}`, { line });
    }
    if (typeof event !== 'object' || event === null || Array.isArray(event)) throw fail(`line ${line} is not an event (a JSON object)`, { line });
    yield { event: /** @type {ChainEvent} */ (event), line };
  }
}

/**
 * Checks one batch against the event before it, failing at its first break; the gaps in the batch (runs of chainSeq not in the file).
 * @param {{ event: ChainEvent, line: number }[]} batch
 * @param {ChainEvent | undefined} before
 * @returns {number}
 */
function checkBatch(batch, before) {
  const broken = verifyChain(
    batch.map((b) => b.event),
    { allowGaps: true, ...(before ? { after: { chainSeq: String(before.chainSeq), hash: before.hash } } : {}) },
  );
  if (broken) {
    const line = batch.find((b) => String(b.event.id) === broken.eventId)?.line;
    throw fail(`event ${broken.eventId}${line ? ` (line ${line})` : ''}: ${broken.reason}`, { eventId: broken.eventId, ...(line ? { line } : {}) });
  }
  let gaps = 0;
  let prev = before ? BigInt(before.chainSeq) : undefined;
  for (const { event } of batch) {
    const seq = BigInt(event.chainSeq);
    if (prev !== undefined && seq !== prev + 1n) gaps++;
    prev = seq;
  }
  return gaps;
}

/**
 * Walks the chain of audit-events.jsonl and checks its head against the manifest.
 * @param {import('./zip.mjs').Bundle} bundle
 * @param {import('./manifest.mjs').Manifest} manifest
 * @returns {Promise<{ events: number, gaps: number, closeEventId: string }>}
 */
export async function checkEvents(bundle, manifest) {
  if (!bundle.entries.has(EVENTS)) throw fail(`${EVENTS} is not in the ZIP`);
  /** @type {{ event: ChainEvent, line: number }[]} */
  let batch = [];
  /** @type {ChainEvent | undefined} */
  let last;
  let count = 0;
  let gaps = 0;
  for await (const item of readEvents(await bundle.stream(EVENTS))) {
    batch.push(item);
    count++;
    if (batch.length === BATCH) {
      gaps += checkBatch(batch, last);
      last = batch[batch.length - 1]?.event;
      batch = [];
    }
  }
  if (batch.length) {
    gaps += checkBatch(batch, last);
    last = batch[batch.length - 1]?.event;
  }
  if (!last) throw fail(`${EVENTS} holds no event (the period's close at least)`);
  const id = String(last.id);
  if (last.hash !== manifest.chainHead)
    throw fail(`the last event (${id}) is not the chain head the manifest signed`, { eventId: id, expected: manifest.chainHead, found: String(last.hash) });
  if (last.action !== CLOSE_ACTION)
    throw fail(`the last event (${id}) is '${String(last.action)}', not the period's close`, {
      eventId: id,
      expected: CLOSE_ACTION,
      found: String(last.action),
    });
  return { events: count, gaps, closeEventId: id };
}
