// The text encoding of a CSV file, from its first bytes.
import { isUtf8 } from 'node:buffer';
import { IngestError } from './errors.js';

export type Decoding = { label: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'; name: string; bom: number };

/**
 * The text encoding, from a BOM, the pattern of zero bytes (UTF-16 without a
 * BOM) or, for bytes that are not UTF-8, Windows-1252 (Excel's 'CSV' on
 * Windows in western Europe; ISO-8859-1 is read the same way). A file that is
 * UTF-8 (it has valid multibyte characters) with a few bad bytes stays UTF-8,
 * and fails on the bad bytes with their position.
 */
export function detectEncoding(head: Buffer): Decoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { label: 'utf-8', name: 'UTF-8 with BOM', bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { label: 'utf-16le', name: 'UTF-16 LE', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { label: 'utf-16be', name: 'UTF-16 BE', bom: 2 };
  const n = Math.min(head.length, 4096);
  let zeroOdd = 0;
  let zeroEven = 0;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b === 0) i % 2 ? zeroOdd++ : zeroEven++;
    else if (b < 9 || (b > 13 && b < 32)) control++;
  }
  if (zeroOdd > n / 4 && zeroEven < n / 50) return { label: 'utf-16le', name: 'UTF-16 LE', bom: 0 };
  if (zeroEven > n / 4 && zeroOdd < n / 50) return { label: 'utf-16be', name: 'UTF-16 BE', bom: 0 };
  if (zeroOdd + zeroEven > 0 || control > n / 20) {
    throw new IngestError('This file is not a text CSV file: it contains binary data. Export the report as CSV, or upload the .xlsx file itself.');
  }
  // The head up to its last ASCII byte (no character cut at the end).
  let end = head.length;
  while (end > 0 && head[end - 1]! >= 0x80) end--;
  const text = head.subarray(0, end);
  if (isUtf8(text)) return { label: 'utf-8', name: 'UTF-8', bom: 0 };
  // Valid multibyte UTF-8 characters against bytes that are not.
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < text.length; i++) {
    const b = text[i]!;
    if (b < 0x80) continue;
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ok = len > 0 && i + len <= text.length;
    for (let k = 1; ok && k < len; k++) ok = (text[i + k]! & 0xc0) === 0x80;
    if (ok) {
      valid++;
      i += len - 1;
    } else invalid++;
  }
  return valid > invalid ? { label: 'utf-8', name: 'UTF-8', bom: 0 } : { label: 'windows-1252', name: 'Windows-1252', bom: 0 };
}
