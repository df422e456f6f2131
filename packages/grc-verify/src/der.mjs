// @ts-check
// A strict reader of DER (the ASN.1 encoding of RFC 3161 tokens, CMS and
// X.509): definite lengths only, every element inside its parent, nothing
// after the last one. It reads what the timestamp check needs and refuses
// the rest, so a token that a lenient parser would read one way and a
// signer another cannot pass.

export const TAG = Object.freeze({
  INTEGER: 0x02,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
  /** [0] constructed (EXPLICIT or IMPLICIT of a constructed type) */
  CTX0: 0xa0,
  /** [1] constructed */
  CTX1: 0xa1,
  /** [0] primitive (an IMPLICIT OCTET STRING, e.g. a subject key identifier) */
  CTX0_PRIMITIVE: 0x80,
});

export class DerError extends Error {}

/**
 * One element: its identifier octet, where its content lies in `buf`, and
 * its whole encoding (`bytes`, a view on `buf`).
 * @typedef {{ tag: number, buf: Buffer, start: number, contentStart: number, end: number, bytes: Buffer, content: Buffer }} DerNode
 */

/**
 * Reads the element at `offset` of `buf`, ending at or before `limit`.
 * @param {Buffer} buf
 * @param {number} offset
 * @param {number} limit
 * @returns {DerNode}
 */
function readAt(buf, offset, limit) {
  if (offset + 2 > limit) throw new DerError(`truncated element at byte ${offset}`);
  const tag = /** @type {number} */ (buf[offset]);
  if ((tag & 0x1f) === 0x1f) throw new DerError(`high tag number at byte ${offset}`);
  let length = /** @type {number} */ (buf[offset + 1]);
  let contentStart = offset + 2;
  if (length === 0x80) throw new DerError(`indefinite length at byte ${offset} (not DER)`);
  if (length > 0x80) {
    const octets = length & 0x7f;
    if (octets > 4 || contentStart + octets > limit) throw new DerError(`bad length at byte ${offset}`);
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + /** @type {number} */ (buf[contentStart + i]);
    contentStart += octets;
  }
  const end = contentStart + length;
  if (end > limit) throw new DerError(`element at byte ${offset} runs past its container`);
  return { tag, buf, start: offset, contentStart, end, bytes: buf.subarray(offset, end), content: buf.subarray(contentStart, end) };
}

/**
 * Reads `buf` as exactly one DER element.
 * @param {Buffer} buf
 * @returns {DerNode}
 */
export function parseDer(buf) {
  const node = readAt(buf, 0, buf.length);
  if (node.end !== buf.length) throw new DerError(`${buf.length - node.end} bytes after the end`);
  return node;
}

/**
 * The elements inside a constructed element.
 * @param {DerNode} node
 * @returns {DerNode[]}
 */
export function children(node) {
  if ((node.tag & 0x20) === 0) throw new DerError(`element 0x${node.tag.toString(16)} at byte ${node.start} is not constructed`);
  /** @type {DerNode[]} */
  const out = [];
  for (let at = node.contentStart; at < node.end;) {
    const child = readAt(node.buf, at, node.end);
    out.push(child);
    at = child.end;
  }
  return out;
}

/**
 * The element's content when its tag is `tag`; refuses any other.
 * @param {DerNode | undefined} node
 * @param {number} tag
 * @param {string} what names the element in the refusal
 * @returns {DerNode}
 */
export function expect(node, tag, what) {
  if (!node) throw new DerError(`${what} is missing`);
  if (node.tag !== tag) throw new DerError(`${what}: expected tag 0x${tag.toString(16)}, found 0x${node.tag.toString(16)}`);
  return node;
}

/**
 * The dotted form of an OBJECT IDENTIFIER.
 * @param {DerNode} node
 * @returns {string}
 */
export function oidOf(node) {
  const b = expect(node, TAG.OID, 'object identifier').content;
  if (b.length === 0) throw new DerError('empty object identifier');
  /** @type {number[]} */
  const arcs = [];
  let value = 0;
  for (const byte of b) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      arcs.push(value);
      value = 0;
    }
  }
  const first = /** @type {number} */ (arcs.shift());
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

/**
 * A small non-negative INTEGER (versions, statuses).
 * @param {DerNode} node
 * @returns {number}
 */
export function smallInt(node) {
  const b = expect(node, TAG.INTEGER, 'integer').content;
  if (b.length === 0 || b.length > 4) throw new DerError('integer out of range');
  return b.readUIntBE(0, b.length);
}

/**
 * A GeneralizedTime ('YYYYMMDDHHMMSS[.fff]Z') as an ISO date.
 * @param {DerNode} node
 * @returns {string}
 */
export function generalizedTime(node) {
  const s = expect(node, TAG.GENERALIZED_TIME, 'time').content.toString('latin1');
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\.\d+)?Z$/.exec(s);
  if (!m) throw new DerError(`unreadable time '${s}'`);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}Z`;
}
