// The audit trail's hash chain, recomputed from events as JSON, with no
// database: the same canonical form and hash as the database writes
// (prisma/functions/audit_event_canonical.sql, audit_canonical_json.sql,
// audit_canonical_number.sql, audit_event_hash.sql; docs/audit-chain.md), byte
// for byte. Plain ESM for Node 20, no dependencies.
import { createHash } from 'node:crypto';

/** The previous hash of the installation's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * An audit event as a bundle writes it (one per line of audit-events.jsonl).
 * @typedef {object} ChainEvent
 * @property {string} id
 * @property {string} chainSeq
 * @property {string} occurredAt ISO 8601, UTC, with milliseconds
 * @property {string | null} actorId
 * @property {string} actorLabel
 * @property {string} action
 * @property {string} entityType
 * @property {string | null} entityId
 * @property {string | null} periodId
 * @property {unknown} before
 * @property {unknown} after
 * @property {string | null} ip
 * @property {string} prevHash
 * @property {string} hash
 */

/**
 * The first event of a chain that does not hold.
 * @typedef {object} ChainBreak
 * @property {string} eventId
 * @property {string} reason
 */

const utf8 = new TextEncoder();

/**
 * A string as jsonb writes it: " \ and \b \f \n \r \t escaped, the other
 * characters below U+0020 as \u00xx (lower case), everything else as it is.
 * @param {string} s
 * @returns {string}
 */
export function canonicalString(s) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += s[i];
  }
  return out + '"';
}

/**
 * A number as the double it is, in its shortest digits that read back as it,
 * in plain notation (no exponent, no trailing zero, 0 for -0).
 * @param {number} x
 * @returns {string}
 */
export function canonicalNumber(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x < 0 ? '-Infinity' : 'Infinity';
  if (x === 0) return '0';
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) throw new Error(`unexpected number text ${String(x)}`);
  const [, sign, int, frac = '', exp = '0'] = m;
  let digits = int + frac;
  let point = int.length + Number(exp);
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  let plain;
  if (point <= 0) plain = '0.' + '0'.repeat(-point) + digits;
  else if (point >= digits.length) plain = digits + '0'.repeat(point - digits.length);
  else plain = digits.slice(0, point) + '.' + digits.slice(point);
  return sign + plain;
}

/**
 * jsonb's order of an object's keys: shorter first (in UTF-8 bytes), then bytewise.
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
function jsonbKeyOrder(a, b) {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/**
 * A JSON value (an event's before or after) in the chain's canonical form:
 * jsonb's text with each number as canonicalNumber writes it. null and
 * undefined are both null.
 * @param {unknown} v
 * @returns {string}
 */
export function canonicalJson(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return canonicalNumber(v);
  if (typeof v === 'string') return canonicalString(v);
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(', ') + ']';
  if (typeof v === 'object') {
    const o = /** @type {Record<string, unknown>} */ (v);
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort(jsonbKeyOrder);
    return '{' + keys.map((k) => canonicalString(k) + ': ' + canonicalJson(o[k])).join(', ') + '}';
  }
  throw new Error(`not a JSON value: ${typeof v}`);
}

/** @param {string | null | undefined} s */
const stringOrNull = (s) => (s === null || s === undefined ? 'null' : canonicalString(String(s)));

/**
 * occurredAt in the canonical form: UTC, milliseconds ('2026-12-07T09:30:00.123Z').
 * @param {string} at
 * @returns {string}
 */
function canonicalTime(at) {
  const t = new Date(at);
  if (Number.isNaN(t.getTime())) throw new Error(`occurredAt is not a date: ${at}`);
  return t.toISOString();
}

/**
 * The text an event's hash covers: a JSON array of id, chainSeq (strings of
 * digits), occurredAt, actorId, actorLabel, action, entityType, entityId,
 * periodId, before, after, ip, ',' between them.
 * @param {Omit<ChainEvent, 'prevHash' | 'hash'> & Partial<Pick<ChainEvent, 'prevHash' | 'hash'>>} e
 * @returns {string}
 */
export function canonicalEvent(e) {
  return (
    '[' +
    [
      canonicalString(String(e.id)),
      canonicalString(String(e.chainSeq)),
      canonicalString(canonicalTime(e.occurredAt)),
      stringOrNull(e.actorId),
      canonicalString(e.actorLabel ?? ''),
      canonicalString(e.action),
      canonicalString(e.entityType),
      stringOrNull(e.entityId),
      stringOrNull(e.periodId),
      canonicalJson(e.before),
      canonicalJson(e.after),
      stringOrNull(e.ip),
    ].join(',') +
    ']'
  );
}

/**
 * SHA-256 (64 lower-case hex digits) of prevHash followed by the event's canonical form, in UTF-8.
 * @param {Parameters<typeof canonicalEvent>[0]} event
 * @param {string} prevHash
 * @returns {string}
 */
export function eventHash(event, prevHash) {
  return createHash('sha256')
    .update(prevHash + canonicalEvent(event), 'utf8')
    .digest('hex');
}

/**
 * Walks events in the order given (chainSeq ascending) and returns the first
 * that does not hold, or null: its hash is not the one recomputed, its
 * prevHash is not the previous event's hash (or 64 zeros at chainSeq 1), or
 * its chainSeq does not follow the previous one (a gap: events missing; or
 * out of order). A run of events from the middle of the chain starts
 * wherever its first event stands; `options.after` checks the link to the
 * event before it as well. `options.allowGaps` is for a selection of the
 * chain's events (a period's, among everyone's): each event's hash is still
 * recomputed and the order checked, a link only between neighbours in the
 * chain, and a gap is not a break (whether events are missing from the
 * selection is for its manifest to say, e.g. by its count).
 * @param {Iterable<ChainEvent>} events
 * @param {{ after?: { chainSeq: string, hash: string }, allowGaps?: boolean }} [options]
 * @returns {ChainBreak | null}
 */
export function verifyChain(events, options = {}) {
  /** @type {{ chainSeq: bigint, hash: string } | null} */
  let prev = options.after ? { chainSeq: BigInt(options.after.chainSeq), hash: options.after.hash } : null;
  for (const e of events) {
    const eventId = String(e.id);
    /** @type {bigint} */
    let seq;
    try {
      seq = BigInt(e.chainSeq);
    } catch {
      return { eventId, reason: `chainSeq is not a whole number: ${String(e.chainSeq)}` };
    }
    if (prev) {
      if (seq <= prev.chainSeq) return { eventId, reason: `out of order: chainSeq ${seq} follows ${prev.chainSeq}` };
      if (seq !== prev.chainSeq + 1n && !options.allowGaps) {
        return { eventId, reason: `gap in the chain: chainSeq ${prev.chainSeq + 1n} to ${seq - 1n} missing before chainSeq ${seq}` };
      }
      if (seq === prev.chainSeq + 1n && e.prevHash !== prev.hash)
        return { eventId, reason: `prev link broken: prevHash is not the hash of event ${prev.chainSeq}` };
    } else if (seq === 1n && e.prevHash !== GENESIS_HASH) {
      return { eventId, reason: 'prev link broken: the first event does not start from 64 zeros' };
    }
    let recomputed;
    try {
      recomputed = eventHash(e, e.prevHash);
    } catch (err) {
      return { eventId, reason: `cannot be read: ${/** @type {Error} */ (err).message}` };
    }
    if (recomputed !== e.hash) return { eventId, reason: 'hash mismatch: the event is not the one that was chained' };
    prev = { chainSeq: seq, hash: e.hash };
  }
  return null;
}
