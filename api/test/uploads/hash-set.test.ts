// The compact duplicate set used by 'Skip duplicate records'.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DigestSet } from '../../src/ingest/hash-set.js';

const digest = (s: string) => crypto.hash('sha1', s, 'buffer');

describe('DigestSet', () => {
  it('adds, finds and refuses repeats, across many growths', () => {
    const set = new DigestSet();
    const start = set.capacity;
    let added = 0;
    for (let i = 0; i < 50_000; i++) if (set.add(digest(`row ${i}`))) added++;
    expect(added).toBe(50_000);
    expect(set.size).toBe(50_000);
    expect(set.capacity).toBeGreaterThan(start * 16);
    expect(set.size / set.capacity).toBeGreaterThan(0.7 / 1.5 - 0.05);
    expect(set.maxLoad).toBeLessThanOrEqual(0.7);
    expect(set.size / set.capacity).toBeGreaterThan(0.25);
    expect(set.bytes).toBe(set.capacity * 12);
    let wrong = 0;
    for (let i = 0; i < 50_000; i++) {
      if (!set.has(digest(`row ${i}`))) wrong++;
      if (set.add(digest(`row ${i}`))) wrong++;
      if (set.has(digest(`other ${i}`))) wrong++;
    }
    expect(wrong).toBe(0);
    expect(set.size).toBe(50_000);
  });

  it('takes the base64 row_hash that rows.ts stores as the same key as the binary digest', () => {
    const set = new DigestSet();
    for (let i = 0; i < 2000; i++) {
      const d = digest(`line ${i}`);
      expect(set.addBase64(d.toString('base64'))).toBe(true);
      expect(set.has(d)).toBe(true);
      expect(set.add(d)).toBe(false);
      expect(set.hasBase64(d.toString('base64url'))).toBe(true);
    }
    expect(() => set.addBase64('short')).toThrow(RangeError);
    expect(() => set.addBase64('!'.repeat(28))).toThrow(RangeError);
  });

  it('keys are 96 bits: digests differing only after the 12th byte are equal, any bit before differs', () => {
    const set = new DigestSet();
    const a = new Uint8Array(20).fill(7);
    set.add(a);
    const b = a.slice();
    b[19] = 1;
    b[12] = 99;
    expect(set.has(b)).toBe(true);
    for (let bit = 0; bit < 96; bit++) {
      const c = a.slice();
      c[bit >> 3]! ^= 1 << (bit & 7);
      expect(set.has(c)).toBe(false);
    }
  });

  it('holds the all-zero key and keys that collide on the first word (linear probing)', () => {
    const set = new DigestSet();
    expect(set.addWords(0, 0, 0)).toBe(true);
    expect(set.addWords(0, 0, 0)).toBe(false);
    expect(set.hasWords(0, 0, 0)).toBe(true);
    // Same first two words: same table, same home slot.
    for (let i = 1; i <= 3000; i++) expect(set.addWords(42, 7, i)).toBe(true);
    for (let i = 1; i <= 3000; i++) expect(set.hasWords(42, 7, i)).toBe(true);
    expect(set.hasWords(42, 7, 3001)).toBe(false);
    expect(set.addWords(0xffffffff, 0xffffffff, 0xffffffff)).toBe(true);
    expect(set.hasWords(-1, -1, -1)).toBe(true);
    expect(set.size).toBe(3002);
  });

  it('gives the memory of a table back when it grows', () => {
    const set = new DigestSet();
    const tables = (set as unknown as { tables: Uint32Array[] }).tables;
    const first = tables[0]!;
    const buffer = first.buffer;
    expect(buffer.byteLength).toBeGreaterThan(0);
    for (let i = 0; i < 20_000; i++) set.add(digest(`k${i}`));
    expect(tables[0] === first).toBe(false);
    expect(buffer.byteLength).toBe(0);
    expect(set.bytes).toBe(tables.reduce((n, t) => n + t.byteLength, 0));
  });

  it('is sized up front when the count is known', () => {
    const set = new DigestSet(100_000);
    expect(set.capacity * 0.7).toBeGreaterThanOrEqual(100_000);
    const cap = set.capacity;
    for (let i = 0; i < 100_000; i++) set.addWords(i * 2654435761, i * 40503, 1);
    expect(set.size).toBe(100_000);
    expect(set.capacity).toBe(cap);
    // Sized to the count, not to a power of two: 12 bytes a key at load 0.7, plus
    // a margin for uneven spread over the tables (22% at 100k keys, 3% at 4M).
    expect(set.bytes).toBeLessThan(((100_000 * 12) / 0.7) * 1.25);
  });
});
