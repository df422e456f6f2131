// A compact set of row digests, for 'Skip duplicate records'.
//
// A Set<string> of row hashes costs ~120 bytes a row in V8 (the string, its
// header and the Set's own table): ~500 MB at 4M rows. This set keeps the
// first 96 bits of each SHA-1 digest, 12 bytes a row, in typed arrays outside
// the V8 heap (open addressing, linear probing), at a load factor between
// 0.47 and 0.7: 17-26 bytes a row, e.g. ~70-100 MB for 4M rows. 96 bits make
// a false duplicate (two different rows with equal keys) practically
// impossible: ~n²/2^97, 1e-16 for 4M rows.
//
// Tables are sized to any count (not only powers of two: a slot is chosen by
// multiply-shift, 'fastrange'), so a set sized up front from the expected
// number of rows holds them at 0.7; a table that fills up grows by half. The
// keys are spread over 256 tables (by the top byte of their first word), each
// growing on its own, and an old table's memory is given back at once (a
// resizable ArrayBuffer shrunk to nothing), so memory never holds an old and
// a new copy of the whole set.

const MAX_LOAD = 0.7;
const GROWTH = 1.5;
const SHARD_BITS = 8;
const SHARDS = 1 << SHARD_BITS;
const MIN_SHARD_SLOTS = 16;
const WORDS = 3;

/** base64 (standard and URL-safe alphabets) -> 6-bit value, -1 for other characters. */
const B64 = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => (B64[c.charCodeAt(0)] = i));
B64['-'.charCodeAt(0)] = 62;
B64['_'.charCodeAt(0)] = 63;

type ResizableArrayBuffer = ArrayBuffer & { resize(bytes: number): void };
const ResizableArrayBuffer = ArrayBuffer as unknown as new (bytes: number, opts: { maxByteLength: number }) => ResizableArrayBuffer;

/** A zeroed table of `slots` keys (3 words each) whose memory can be given back at once. */
function table(slots: number): Uint32Array {
  const bytes = slots * WORDS * 4;
  return new Uint32Array(new ResizableArrayBuffer(bytes, { maxByteLength: bytes }), 0, slots * WORDS);
}

/** The home slot of a key in a table of `slots` (uniform, from the key's second word). */
function home(b: number, slots: number): number {
  return Math.floor(((b >>> 8) * slots) / 16777216);
}

export class DigestSet {
  private readonly tables: Uint32Array[] = [];
  private readonly slots = new Uint32Array(SHARDS);
  private readonly counts = new Uint32Array(SHARDS);
  private readonly limits = new Uint32Array(SHARDS);
  private count = 0;
  /** The all-zero key cannot live in a table (it marks an empty slot). */
  private hasZero = false;
  /** Scratch for decoding a key. */
  private readonly key = new Uint32Array(WORDS);

  /** `expected`: keys to make room for up front (the set still grows past it). */
  constructor(expected = 0) {
    // Room for the expected share of each table, with margin for uneven spread.
    const share = expected / SHARDS;
    const want = share ? share + 4 * Math.sqrt(share) + 8 : 0;
    const slots = Math.max(MIN_SHARD_SLOTS, Math.ceil(want / MAX_LOAD));
    for (let s = 0; s < SHARDS; s++) {
      this.tables.push(table(slots));
      this.slots[s] = slots;
      this.limits[s] = Math.floor(slots * MAX_LOAD);
    }
  }

  /** Number of keys held. */
  get size(): number {
    return this.count;
  }

  /** Slots in all tables. */
  get capacity(): number {
    let n = 0;
    for (let s = 0; s < SHARDS; s++) n += this.slots[s]!;
    return n;
  }

  /** Bytes of all tables. */
  get bytes(): number {
    return this.capacity * WORDS * 4;
  }

  /** The highest load factor of any table. */
  get maxLoad(): number {
    let m = 0;
    for (let s = 0; s < SHARDS; s++) m = Math.max(m, this.counts[s]! / this.slots[s]!);
    return m;
  }

  /** Adds a key given as three 32-bit words; true when it was not there yet. */
  addWords(a: number, b: number, c: number): boolean {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    if ((a | b | c) === 0) {
      if (this.hasZero) return false;
      this.hasZero = true;
      this.count++;
      return true;
    }
    const s = a >>> (32 - SHARD_BITS);
    if (this.counts[s]! >= this.limits[s]!) this.grow(s);
    const t = this.tables[s]!;
    const o = this.slot(t, this.slots[s]!, a, b, c);
    if ((t[o]! | t[o + 1]! | t[o + 2]!) !== 0) return false;
    t[o] = a;
    t[o + 1] = b;
    t[o + 2] = c;
    this.counts[s]!++;
    this.count++;
    return true;
  }

  hasWords(a: number, b: number, c: number): boolean {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    if ((a | b | c) === 0) return this.hasZero;
    const s = a >>> (32 - SHARD_BITS);
    const t = this.tables[s]!;
    const o = this.slot(t, this.slots[s]!, a, b, c);
    return (t[o]! | t[o + 1]! | t[o + 2]!) !== 0;
  }

  /**
   * Linear probing from the digest's home slot: the offset of the slot that
   * holds (a, b, c), or of the empty slot where it would go.
   */
  private slot(t: Uint32Array, n: number, a: number, b: number, c: number): number {
    let i = home(b, n);
    for (;;) {
      const o = i * WORDS;
      const x = t[o]!;
      const y = t[o + 1]!;
      const z = t[o + 2]!;
      if ((x | y | z) === 0 || (x === a && y === b && z === c)) return o;
      if (++i === n) i = 0;
    }
  }

  /** Adds the first 12 bytes of a binary digest (at least 12 bytes long). */
  add(digest: Uint8Array): boolean {
    if (digest.length < 12) throw new RangeError('a digest of at least 12 bytes is needed');
    return this.addWords(word(digest, 0), word(digest, 4), word(digest, 8));
  }

  has(digest: Uint8Array): boolean {
    if (digest.length < 12) throw new RangeError('a digest of at least 12 bytes is needed');
    return this.hasWords(word(digest, 0), word(digest, 4), word(digest, 8));
  }

  /**
   * Adds a digest given in base64 (as rows.ts stores row_hash: 28 characters
   * for SHA-1), decoding its first 96 bits without allocating.
   */
  addBase64(s: string): boolean {
    this.decodeBase64(s);
    const k = this.key;
    return this.addWords(k[0]!, k[1]!, k[2]!);
  }

  hasBase64(s: string): boolean {
    this.decodeBase64(s);
    const k = this.key;
    return this.hasWords(k[0]!, k[1]!, k[2]!);
  }

  private decodeBase64(s: string) {
    // 96 bits are 16 base64 characters exactly.
    if (s.length < 16) throw new RangeError(`not a base64 digest of 96 bits or more: '${s}'`);
    const k = this.key;
    let acc = 0; // bits not yet placed, at most 37 (kept below 2^53 as a number)
    let bits = 0;
    let w = 0;
    for (let i = 0; i < 16; i++) {
      const c = s.charCodeAt(i);
      const v = c < 128 ? B64[c]! : -1;
      if (v < 0) throw new RangeError(`not a base64 digest: '${s}'`);
      acc = acc * 64 + v;
      bits += 6;
      if (bits >= 32 && w < WORDS) {
        bits -= 32;
        const p = 2 ** bits;
        k[w++] = Math.floor(acc / p);
        acc %= p;
      }
    }
  }

  /** Grows one table by half, then gives the old one's memory back. */
  private grow(s: number) {
    const old = this.tables[s]!;
    const slots = Math.ceil(this.slots[s]! * GROWTH);
    const t = table(slots);
    for (let o = 0; o < old.length; o += WORDS) {
      const a = old[o]!;
      const b = old[o + 1]!;
      const c = old[o + 2]!;
      if ((a | b | c) === 0) continue;
      let i = home(b, slots);
      while ((t[i * WORDS]! | t[i * WORDS + 1]! | t[i * WORDS + 2]!) !== 0) if (++i === slots) i = 0;
      const n = i * WORDS;
      t[n] = a;
      t[n + 1] = b;
      t[n + 2] = c;
    }
    this.tables[s] = t;
    this.slots[s] = slots;
    this.limits[s] = Math.floor(slots * MAX_LOAD);
    (old.buffer as ResizableArrayBuffer).resize(0);
  }
}

function word(b: Uint8Array, o: number): number {
  return ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
}
