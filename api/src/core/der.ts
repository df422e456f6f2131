// A minimal ASN.1 DER writer and reader: enough for RFC 3161 timestamp
// requests and answers (services/evidence/timestamp.ts) and the tests' own
// timestamp authority. Definite lengths only (DER has no other kind).

export type Der = Buffer;

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One element: its tag byte, then its content. */
export function tlv(tag: number, content: Buffer): Der {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

export const seq = (...items: Der[]) => tlv(0x30, Buffer.concat(items));
/** A SET OF, its elements in DER order (sorted by their encodings). */
export const set = (...items: Der[]) => tlv(0x31, Buffer.concat([...items].sort(Buffer.compare)));
export const octets = (b: Buffer) => tlv(0x04, b);
export const nul = () => Buffer.from([0x05, 0x00]);
export const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
export const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
export const bitString = (b: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
/** [n] EXPLICIT (constructed, context-specific). */
export const explicit = (n: number, inner: Der) => tlv(0xa0 | n, inner);
/** [n] IMPLICIT of a constructed type: the inner element's content under the context tag. */
export const implicit = (n: number, inner: Der) => tlv(0xa0 | n, read(inner).content);

/** A non-negative INTEGER (a number, a bigint or its big-endian bytes). */
export function int(v: number | bigint | Buffer): Der {
  let b: Buffer;
  if (Buffer.isBuffer(v)) b = v;
  else {
    let hex = BigInt(v).toString(16);
    if (hex.length % 2) hex = '0' + hex;
    b = Buffer.from(hex, 'hex');
  }
  let i = 0;
  while (i < b.length - 1 && b[i] === 0 && b[i + 1]! < 0x80) i++;
  b = b.subarray(i);
  if (b[0]! >= 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

export function oid(dotted: string): Der {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [parts[0]! * 40 + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** GeneralizedTime in UTC, with milliseconds when there are any. */
export function generalizedTime(d: Date): Der {
  const ms = d.getUTCMilliseconds();
  const s = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}${ms ? '.' + pad(ms, 3).replace(/0+$/, '') : ''}Z`;
  return tlv(0x18, Buffer.from(s, 'ascii'));
}
export function utcTime(d: Date): Der {
  const s = `${pad(d.getUTCFullYear() % 100)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(s, 'ascii'));
}

export interface Element {
  tag: number;
  /** The element's content (without tag and length). */
  content: Buffer;
  /** The whole element, tag and length included. */
  raw: Buffer;
}

/** The element at `offset` of `buf`; throws on a truncated or indefinite length. */
export function read(buf: Buffer, offset = 0): Element {
  if (offset + 2 > buf.length) throw new Error('DER: truncated');
  const tag = buf[offset]!;
  let len = buf[offset + 1]!;
  let head = 2;
  if (len & 0x80) {
    const count = len & 0x7f;
    if (count === 0 || count > 4) throw new Error('DER: unsupported length');
    len = 0;
    for (let i = 0; i < count; i++) len = len * 256 + buf[offset + 2 + i]!;
    head += count;
  }
  const end = offset + head + len;
  if (end > buf.length) throw new Error('DER: truncated');
  return { tag, content: buf.subarray(offset + head, end), raw: buf.subarray(offset, end) };
}

/** The elements inside a constructed element's content. */
export function children(content: Buffer): Element[] {
  const out: Element[] = [];
  for (let at = 0; at < content.length;) {
    const e = read(content, at);
    out.push(e);
    at += e.raw.length;
  }
  return out;
}
